import { isEventKey, type PublishedEvent } from '@custodian/contracts';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { appendToFeed } from './feed.store';

/** What the events consumer calls with each batch before fanning it out. */
@Injectable()
export class EventFeedWriter {
  constructor(private readonly db: DataSource) {}

  /** Appends the batch's catalog events (never a ping) in the order they came; returns how many were new. */
  append(events: readonly PublishedEvent[]): Promise<number> {
    return appendToFeed(
      this.db,
      events.filter((event) => isEventKey(event.event)),
    );
  }
}
