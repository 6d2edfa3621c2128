import type { CustomField } from '@custodian/console-client';
import type { CustomFieldTexts } from './custom-field-form';

/** One input per custom field of the workspace, of the kind its type takes. */
export function CustomFieldInputs({
  fields,
  texts,
  onChange,
}: {
  fields: CustomField[];
  texts: CustomFieldTexts;
  onChange: (texts: CustomFieldTexts) => void;
}) {
  if (fields.length === 0) return null;
  const set = (key: string, text: string) => onChange({ ...texts, [key]: text });
  return (
    <fieldset className="fieldset">
      <legend>Custom fields</legend>
      {fields.map((field) => {
        const id = `custom-${field.key}`;
        const text = texts[field.key] ?? '';
        const label = (
          <label htmlFor={id}>
            {field.label}
            {field.required && <span className="muted"> (required)</span>}
          </label>
        );
        if (field.type === 'boolean' || field.type === 'select') {
          const choices =
            field.type === 'boolean'
              ? [
                  { value: 'true', label: 'Yes' },
                  { value: 'false', label: 'No' },
                ]
              : (field.options ?? []).map((option) => ({ value: option, label: option }));
          return (
            <div className="field" key={field.key}>
              {label}
              <select
                id={id}
                value={text}
                required={field.required}
                onChange={(event) => set(field.key, event.target.value)}
              >
                <option value="">—</option>
                {choices.map((choice) => (
                  <option key={choice.value} value={choice.value}>
                    {choice.label}
                  </option>
                ))}
              </select>
            </div>
          );
        }
        return (
          <div className="field" key={field.key}>
            {label}
            <input
              id={id}
              type={field.type === 'number' ? 'number' : field.type === 'date' ? 'date' : 'text'}
              step={field.type === 'number' ? 'any' : undefined}
              maxLength={field.type === 'text' ? 2000 : undefined}
              required={field.required}
              value={text}
              onChange={(event) => set(field.key, event.target.value)}
            />
          </div>
        );
      })}
    </fieldset>
  );
}
