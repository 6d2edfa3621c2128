import type { Rule } from 'eslint';
import { lintTree as lintWith } from './lint-tree';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const noImportCycle = require('./no-import-cycle.js') as Rule.RuleModule;

const lintTree = (files: Record<string, string>) =>
  lintWith('no-import-cycle', noImportCycle, files);

describe('no-import-cycle', () => {
  it('reports both ends of a cycle whose one direction imports only types', () => {
    const messages = lintTree({
      'src/assets.ts': "import type { Asset } from './models/assets';\nexport const MAX = 200;\n",
      'src/models/assets.ts': "import { MAX } from '../assets';\nexport class Asset { n = MAX; }\n",
    });
    expect(messages['src/assets.ts']).toEqual([
      'Import cycle: src/assets.ts -> src/models/assets.ts -> src/assets.ts. Move what both need into a file that neither imports back.',
    ]);
    expect(messages['src/models/assets.ts']).toHaveLength(1);
  });

  it('follows a cycle through several files, index files and re-exports', () => {
    const messages = lintTree({
      'a.ts': "export * from './b';\n",
      'b/index.ts': "export { c } from '../c';\n",
      'c.ts': "import { a } from './a';\nexport const c = () => a;\n",
    });
    expect(messages['a.ts']?.[0]).toContain('a.ts -> b/index.ts -> c.ts -> a.ts');
    expect(messages['c.ts']?.[0]).toContain('c.ts -> a.ts -> b/index.ts -> c.ts');
  });

  it('passes a tree whose imports all point one way, and ignores packages', () => {
    const messages = lintTree({
      'page.ts': "import { readFileSync } from 'node:fs';\nexport const read = readFileSync;\n",
      'assets.ts': "import { read } from './page';\nexport const x = read;\n",
      'models/assets.ts': "import type { x } from '../assets';\nexport type X = typeof x;\n",
    });
    expect(messages).toEqual({ 'page.ts': [], 'assets.ts': [], 'models/assets.ts': [] });
  });
});
