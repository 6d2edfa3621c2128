/**
 * A range as two `datetime-local` fields side by side (the reader's time zone): a request's
 * "needed from / until", an approval's booking dates.
 */
export function RangeFields({
  id,
  fromLabel,
  from,
  to,
  onFrom,
  onTo,
}: {
  id: string;
  fromLabel: string;
  from: string;
  to: string;
  onFrom: (value: string) => void;
  onTo: (value: string) => void;
}) {
  return (
    <div className="choice-row">
      <div className="field">
        <label htmlFor={`${id}-from`}>{fromLabel}</label>
        <input
          id={`${id}-from`}
          type="datetime-local"
          value={from}
          onChange={(event) => onFrom(event.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor={`${id}-to`}>Until</label>
        <input
          id={`${id}-to`}
          type="datetime-local"
          value={to}
          onChange={(event) => onTo(event.target.value)}
        />
      </div>
    </div>
  );
}
