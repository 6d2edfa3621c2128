import type { EventModule } from '@custodian/console-client';
import { receivesAll } from './endpoint-state';
import {
  eventsToSend,
  moduleState,
  selectionFromEvents,
  subscribableModules,
  toggleKey,
  toggleModule,
} from './event-selection';

const asset: EventModule = {
  module: 'asset',
  events: [
    { key: 'asset.created', description: 'An asset was created.', example: {}, subscribable: true },
    { key: 'asset.updated', description: 'An asset was changed.', example: {}, subscribable: true },
  ],
};

describe('event selection', () => {
  it("reads '*' as all events and sends it back alone", () => {
    const selection = selectionFromEvents(['*']);
    expect(selection.all).toBe(true);
    expect(eventsToSend(selection)).toEqual({ events: ['*'] });
    expect(receivesAll(['*'])).toBe(true);
    expect(receivesAll(['asset.created'])).toBe(false);
  });

  it('selects and clears a whole module, and reports a partial one', () => {
    let selection = selectionFromEvents([]);
    expect(moduleState(selection, asset)).toBe('none');
    selection = toggleKey(selection, 'asset.updated', true);
    expect(moduleState(selection, asset)).toBe('some');
    selection = toggleModule(selection, asset, true);
    expect(moduleState(selection, asset)).toBe('all');
    expect(eventsToSend(selection)).toEqual({ events: ['asset.created', 'asset.updated'] });
    selection = toggleModule(selection, asset, false);
    expect(selection.keys.size).toBe(0);
  });

  it('keeps keys of other modules when a module is cleared', () => {
    const selection = toggleModule(selectionFromEvents(['person.created']), asset, false);
    expect([...selection.keys]).toEqual(['person.created']);
  });

  it('refuses an empty selection with a sentence naming the field', () => {
    expect(eventsToSend(selectionFromEvents([]))).toEqual({
      error: 'Events: pick at least one event, or All events.',
    });
  });

  it('does not change the selection it was given', () => {
    const before = selectionFromEvents(['asset.created']);
    toggleKey(before, 'asset.updated', true);
    expect([...before.keys]).toEqual(['asset.created']);
  });

  it('leaves console-only notices out of what an endpoint can pick', () => {
    const notices: EventModule = {
      module: 'endpoint',
      events: [{ key: 'endpoint.disabled', description: '', example: {}, subscribable: false }],
    };
    expect(subscribableModules([asset, notices])).toEqual([asset]);
  });
});
