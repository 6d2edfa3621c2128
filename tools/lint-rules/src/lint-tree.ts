import { Linter, type Rule } from 'eslint';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import tseslint from 'typescript-eslint';

/**
 * For the rules' specs: writes a small tree of files to disk, lints each with `rule` alone
 * (as `cycles/<name>`), and returns the messages by file.
 */
export function lintTree(
  name: string,
  rule: Rule.RuleModule,
  files: Record<string, string>,
): Record<string, string[]> {
  const root = mkdtempSync(path.join(tmpdir(), `${name}-`));
  try {
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), text);
    }
    const linter = new Linter({ cwd: root });
    const config: Linter.Config[] = [
      {
        files: ['**/*.ts'],
        languageOptions: { parser: tseslint.parser },
        plugins: { cycles: { rules: { [name]: rule } } },
        rules: { [`cycles/${name}`]: 'error' },
      },
    ];
    const messages: Record<string, string[]> = {};
    for (const file of Object.keys(files)) {
      const filename = path.join(root, file);
      messages[file] = linter
        .verify(readFileSync(filename, 'utf8'), config, { filename })
        .map((message) => message.message);
    }
    return messages;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
