import type { Endpoint, EventModule } from '@custodian/console-client';
import {
  type FilterValues,
  DELIVERY_STATUSES,
  isoToLocalInput,
  localInputToIso,
} from './delivery-filters';

interface FilterFormProps {
  filters: FilterValues;
  endpoints: Endpoint[];
  modules: EventModule[];
  onChange: (filters: FilterValues) => void;
}

/** The log's filters; each change goes straight to the URL (and so to the list). */
export function DeliveryFilterForm({ filters, endpoints, modules, onChange }: FilterFormProps) {
  const set = (change: Partial<FilterValues>) => onChange({ ...filters, ...change });
  const knownEndpoint = endpoints.some((endpoint) => endpoint.id === filters.endpoint);
  const knownEvent = modules.some((module) => module.events.some((e) => e.key === filters.event));

  return (
    <form className="filters" role="search" onSubmit={(event) => event.preventDefault()}>
      <div className="field">
        <label htmlFor="filter-endpoint">Endpoint</label>
        <select
          id="filter-endpoint"
          value={filters.endpoint}
          onChange={(event) => set({ endpoint: event.target.value })}
        >
          <option value="">All endpoints</option>
          {filters.endpoint && !knownEndpoint && (
            <option value={filters.endpoint}>{filters.endpoint}</option>
          )}
          {endpoints.map((endpoint) => (
            <option key={endpoint.id} value={endpoint.id}>
              {endpoint.url}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="filter-event">Event</label>
        <select
          id="filter-event"
          value={filters.event}
          onChange={(event) => set({ event: event.target.value })}
        >
          <option value="">All events</option>
          {filters.event && !knownEvent && <option value={filters.event}>{filters.event}</option>}
          {modules.map((module) => (
            <optgroup key={module.module} label={module.module}>
              {module.events.map((event) => (
                <option key={event.key} value={event.key}>
                  {event.key}
                </option>
              ))}
            </optgroup>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="filter-status">Status</label>
        <select
          id="filter-status"
          value={filters.status}
          onChange={(event) => {
            const status = DELIVERY_STATUSES.find((value) => value === event.target.value);
            set({ status: status ?? '' });
          }}
        >
          <option value="">Any status</option>
          {DELIVERY_STATUSES.map((status) => (
            <option key={status} value={status}>
              {status}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="filter-from">From</label>
        <input
          id="filter-from"
          type="datetime-local"
          value={isoToLocalInput(filters.from)}
          onChange={(event) => set({ from: localInputToIso(event.target.value) })}
        />
      </div>
      <div className="field">
        <label htmlFor="filter-to">To</label>
        <input
          id="filter-to"
          type="datetime-local"
          value={isoToLocalInput(filters.to)}
          onChange={(event) => set({ to: localInputToIso(event.target.value) })}
        />
      </div>
    </form>
  );
}
