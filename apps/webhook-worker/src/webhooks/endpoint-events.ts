import { Injectable } from '@nestjs/common';

/**
 * What happens to endpoints that other features act on, without this folder depending on
 * them: delivery (which depends on webhooks) listens here for an endpoint enabled again, whose
 * waiting deliveries may go at once.
 */
@Injectable()
export class EndpointEvents {
  private readonly enabledListeners: Array<(endpointId: string) => void> = [];

  onEnabled(listener: (endpointId: string) => void): void {
    this.enabledListeners.push(listener);
  }

  enabled(endpointId: string): void {
    for (const listener of this.enabledListeners) listener(endpointId);
  }
}
