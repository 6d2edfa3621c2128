import { CONDITIONS, CONDITION_LABEL, STATUSES, STATUS_LABEL } from './asset-values';

/** The `<option>`s of every status select, in the API's order. */
export function StatusOptions() {
  return STATUSES.map((value) => (
    <option key={value} value={value}>
      {STATUS_LABEL[value]}
    </option>
  ));
}

/** The `<option>`s of every condition select, "Not recorded" first (sent as null). */
export function ConditionOptions() {
  return (
    <>
      <option value="">Not recorded</option>
      {CONDITIONS.map((value) => (
        <option key={value} value={value}>
          {CONDITION_LABEL[value]}
        </option>
      ))}
    </>
  );
}
