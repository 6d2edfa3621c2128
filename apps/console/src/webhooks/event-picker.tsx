import type { EventModule } from '@custodian/console-client';
import { useEffect, useRef } from 'react';
import { prettyJson } from '../shared/format';
import { type EventSelection, moduleState, toggleKey, toggleModule } from './event-selection';

interface EventPickerProps {
  modules: EventModule[];
  selection: EventSelection;
  onChange: (selection: EventSelection) => void;
}

/** A module's "select all" box, indeterminate when only some of its keys are chosen. */
function ModuleCheckbox({
  module,
  selection,
  onChange,
}: {
  module: EventModule;
  selection: EventSelection;
  onChange: (selection: EventSelection) => void;
}) {
  const ref = useRef<HTMLInputElement>(null);
  const state = moduleState(selection, module);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = state === 'some';
  }, [state]);
  return (
    <label className="inline module-all">
      <input
        ref={ref}
        type="checkbox"
        checked={state === 'all'}
        onChange={(event) => onChange(toggleModule(selection, module, event.target.checked))}
      />
      All {module.module} events
    </label>
  );
}

/** "All events", else the keys by module with what each means and an example payload. */
export function EventPicker({ modules, selection, onChange }: EventPickerProps) {
  return (
    <fieldset className="field events">
      <legend>Events</legend>
      <label className="inline">
        <input
          type="checkbox"
          checked={selection.all}
          onChange={(event) => onChange({ ...selection, all: event.target.checked })}
        />
        <span>
          <strong>All events</strong>, including ones added later
        </span>
      </label>
      {!selection.all &&
        modules.map((module) => (
          <fieldset key={module.module} className="event-module">
            <legend>{module.module}</legend>
            <ModuleCheckbox module={module} selection={selection} onChange={onChange} />
            <ul>
              {module.events.map((event) => (
                <li key={event.key}>
                  <label className="inline">
                    <input
                      type="checkbox"
                      checked={selection.keys.has(event.key)}
                      onChange={(change) =>
                        onChange(toggleKey(selection, event.key, change.target.checked))
                      }
                    />
                    <span className="mono">{event.key}</span>
                  </label>
                  <p className="hint">{event.description}</p>
                  <details>
                    <summary>Example payload</summary>
                    <pre>{prettyJson(event.example)}</pre>
                  </details>
                </li>
              ))}
            </ul>
          </fieldset>
        ))}
    </fieldset>
  );
}
