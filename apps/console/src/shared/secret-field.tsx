import { useId, useRef, useState } from 'react';

/**
 * A secret in a read-only field with a Copy button. Without the Clipboard API (a page not
 * served over HTTPS or from localhost) the text is selected for the person to copy.
 */
export function SecretField({ label, value }: { label: string; value: string }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<'copied' | 'selected' | null>(null);

  function selectText() {
    input.current?.focus();
    input.current?.select();
    setCopied('selected');
  }

  function copy() {
    // navigator.clipboard is missing outside secure contexts, although the DOM types say not.
    const clipboard = (navigator as Partial<Navigator>).clipboard;
    if (!clipboard) {
      selectText();
      return;
    }
    clipboard.writeText(value).then(() => setCopied('copied'), selectText);
  }

  return (
    <div className="secret">
      <label htmlFor={id}>{label}</label>
      <div className="secret-row">
        <input
          id={id}
          ref={input}
          className="mono"
          readOnly
          value={value}
          onFocus={(event) => event.currentTarget.select()}
          spellCheck={false}
          autoComplete="off"
        />
        <button type="button" onClick={copy}>
          Copy
        </button>
      </div>
      <p className="hint" aria-live="polite">
        {copied === 'copied' && 'Copied to the clipboard.'}
        {copied === 'selected' && 'Selected: press Ctrl+C (⌘C on a Mac) to copy.'}
      </p>
    </div>
  );
}
