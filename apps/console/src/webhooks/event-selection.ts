// The event picker's selection: every event ('*'), or a set of keys. Pure, so that "select all
// of a module" and what is sent to the API are tested without a browser.
import type { EventModule } from '@custodian/console-client';

export interface EventSelection {
  all: boolean;
  keys: ReadonlySet<string>;
}

export function selectionFromEvents(events: readonly string[]): EventSelection {
  if (events.includes('*')) return { all: true, keys: new Set() };
  return { all: false, keys: new Set(events) };
}

export function toggleKey(selection: EventSelection, key: string, on: boolean): EventSelection {
  const keys = new Set(selection.keys);
  if (on) keys.add(key);
  else keys.delete(key);
  return { ...selection, keys };
}

export function toggleModule(
  selection: EventSelection,
  module: EventModule,
  on: boolean,
): EventSelection {
  const keys = new Set(selection.keys);
  for (const event of module.events) {
    if (on) keys.add(event.key);
    else keys.delete(event.key);
  }
  return { ...selection, keys };
}

/** 'some' shows the module's checkbox as indeterminate. */
export function moduleState(
  selection: EventSelection,
  module: EventModule,
): 'all' | 'some' | 'none' {
  const chosen = module.events.filter((event) => selection.keys.has(event.key)).length;
  if (chosen === 0) return 'none';
  return chosen === module.events.length ? 'all' : 'some';
}

/** The `events` field sent to the API, or the sentence saying why there is none. */
export function eventsToSend(selection: EventSelection): { events: string[] } | { error: string } {
  if (selection.all) return { events: ['*'] };
  if (selection.keys.size === 0) {
    return { error: 'Events: pick at least one event, or All events.' };
  }
  return { events: [...selection.keys].sort() };
}

/**
 * The modules with only the keys an endpoint can subscribe to: the catalog also lists
 * console-only notices (endpoint.disabled), which the API refuses in an endpoint's events.
 */
export function subscribableModules(modules: readonly EventModule[]): EventModule[] {
  return modules
    .map((module) => ({ ...module, events: module.events.filter((event) => event.subscribable) }))
    .filter((module) => module.events.length > 0);
}
