import type { Import } from '@custodian/console-client';
import { type FormEvent, useState } from 'react';
import { ErrorNotice } from '../shared/notices';
import { IMPORT_TYPE_LABEL } from './import-values';
import { useUploadImport } from './imports.queries';

/** The most an import takes (the API's IMPORT_MAX_BYTES): a larger file is refused here first. */
const MAX_BYTES = 50 * 1024 * 1024;

const COLUMNS_HINT: Record<Import['type'], string> = {
  assets:
    'A header line, then one asset a line: name, asset_tag, serial_number, status, brand, ' +
    'model, category, location… as the asset list exports them, custom fields by key or label. ' +
    'A row updates the asset of its id, else its tag, else its serial number; otherwise it ' +
    'creates one.',
  people:
    'A header line, then one person a line: full_name, email, employee_number, department, ' +
    'location, status… as the people list exports them. A row updates the person of its ' +
    'id, else e-mail, else employee number; otherwise it creates one.',
};

/**
 * Upload a CSV file: what it holds, the file, and whether to see the dry run before anything
 * is written (the default). The file goes as it is; the API reads and plans every row.
 */
export function UploadImportForm({
  type: initialType,
  onUploaded,
}: {
  type: Import['type'];
  onUploaded: (job: Import) => void;
}) {
  const upload = useUploadImport();
  const [type, setType] = useState<Import['type']>(initialType);
  const [file, setFile] = useState<File | null>(null);
  const [review, setReview] = useState(true);
  const [problem, setProblem] = useState<string | null>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    if (!file) return setProblem('Choose the CSV file to import.');
    if (file.size === 0) return setProblem(`${file.name} is empty.`);
    if (file.size > MAX_BYTES) {
      return setProblem(
        `${file.name} is ${(file.size / 1024 / 1024).toFixed(1)} MiB; an import takes at most 50 MiB.`,
      );
    }
    upload.mutate(
      {
        file,
        query: { type, dry_run: review ? 'true' : 'false', filename: file.name.slice(0, 200) },
      },
      { onSuccess: onUploaded },
    );
  }

  return (
    <form onSubmit={submit} aria-label="Upload a CSV file">
      <fieldset className="field">
        <legend>The file holds</legend>
        {(['assets', 'people'] as const).map((each) => (
          <label key={each} className="checkbox">
            <input
              type="radio"
              name="import-type"
              checked={type === each}
              onChange={() => setType(each)}
            />{' '}
            {IMPORT_TYPE_LABEL[each]}
          </label>
        ))}
      </fieldset>
      <div className="field">
        <label htmlFor="import-file">CSV file</label>
        <input
          id="import-file"
          type="file"
          accept=".csv,text/csv"
          onChange={(event) => setFile(event.target.files?.[0] ?? null)}
        />
        <p className="hint">{COLUMNS_HINT[type]} UTF-8, at most 50 MiB and 200,000 rows.</p>
      </div>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={review}
          onChange={(event) => setReview(event.target.checked)}
        />{' '}
        Show me the dry run before importing
      </label>
      {problem && <p className="field-error">{problem}</p>}
      <ErrorNotice error={upload.error} />
      <div className="actions">
        <button type="submit" className="button-primary" disabled={upload.isPending}>
          {upload.isPending ? 'Uploading…' : 'Upload'}
        </button>
      </div>
    </form>
  );
}
