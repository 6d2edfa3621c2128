import { useState } from 'react';

/**
 * A search box with its Find button: Enter or the button hands the trimmed text to `onFind`
 * (the pickers ask the API only then, not on every key).
 */
export function FindBox({
  id,
  label,
  placeholder,
  initial = '',
  onFind,
}: {
  id: string;
  label: string;
  placeholder: string;
  initial?: string;
  onFind: (text: string) => void;
}) {
  const [text, setText] = useState(initial);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className="inline-form">
        <input
          id={id}
          type="search"
          value={text}
          maxLength={200}
          placeholder={placeholder}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              onFind(text.trim());
            }
          }}
        />
        <button type="button" className="button-small" onClick={() => onFind(text.trim())}>
          Find
        </button>
      </div>
    </div>
  );
}
