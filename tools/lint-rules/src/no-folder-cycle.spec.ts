import type { Rule } from 'eslint';
import { lintTree as lintWith } from './lint-tree';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const noFolderCycle = require('./no-folder-cycle.js') as Rule.RuleModule;

const lintTree = (files: Record<string, string>) =>
  lintWith('no-folder-cycle', noFolderCycle, files);

describe('no-folder-cycle', () => {
  it('reports two folders of an app that import each other, though no file cycle exists', () => {
    const messages = lintTree({
      'apps/gw/src/access/guard.ts':
        "import { limit } from '../limits/gate';\nexport const g = limit;\n",
      'apps/gw/src/access/record.ts': 'export interface AccessRecord { id: string }\n',
      'apps/gw/src/limits/gate.ts': 'export const limit = 1;\n',
      'apps/gw/src/limits/admission.ts':
        "import type { AccessRecord } from '../access/record';\nexport type A = AccessRecord;\n",
    });
    expect(messages['apps/gw/src/access/guard.ts']).toEqual([
      'Folder cycle in apps/gw/src: access -> limits, limits -> access (apps/gw/src/limits/admission.ts). One of these folders must not depend on the other: move what both need below both, or invert the dependency.',
    ]);
    expect(messages['apps/gw/src/limits/admission.ts']?.[0]).toContain(
      'limits -> access, access -> limits (apps/gw/src/access/guard.ts)',
    );
    expect(messages['apps/gw/src/access/record.ts']).toEqual([]);
  });

  it('follows a cycle through a third folder, and checks subfolders of a folder too', () => {
    const messages = lintTree({
      'apps/w/src/a/a.ts': "import { b } from '../b/b';\nexport const a = b;\n",
      'apps/w/src/b/b.ts': "import { c } from '../c/c';\nexport const b = c;\n",
      'apps/w/src/c/c.ts': "import { x } from '../a/x';\nexport const c = x;\n",
      'apps/w/src/a/x.ts': 'export const x = 1;\n',
      'apps/w/src/console/session/s.ts': "import { k } from '../keys/k';\nexport const s = k;\n",
      'apps/w/src/console/keys/k.ts': "import { t } from '../session/t';\nexport const k = t;\n",
      'apps/w/src/console/session/t.ts': 'export const t = 1;\n',
    });
    expect(messages['apps/w/src/a/a.ts']?.[0]).toContain('a -> b, b -> c (apps/w/src/b/b.ts)');
    expect(messages['apps/w/src/console/session/s.ts']?.[0]).toContain(
      'Folder cycle in apps/w/src/console: session -> keys',
    );
  });

  it('passes one-way folders, composition roots, tests, and code outside an app', () => {
    const messages = lintTree({
      'apps/r/src/app.module.ts': "import { a } from './assets/a';\nexport const m = a;\n",
      'apps/r/src/assets/a.ts': "import { p } from '../people/p';\nexport const a = p;\n",
      'apps/r/src/people/p.ts':
        "import { m } from '../app.module';\nexport const p = 1;\nexport const n = m;\n",
      'apps/r/src/people/p.spec.ts': "import { a } from '../assets/a';\nexport const t = a;\n",
      'libs/x/src/one/o.ts': "import { t } from '../two/t';\nexport const o = t;\n",
      'libs/x/src/two/t.ts':
        "import { o } from '../one/o';\nexport const t = 1;\nexport const u = o;\n",
    });
    expect(messages).toEqual({
      'apps/r/src/app.module.ts': [],
      'apps/r/src/assets/a.ts': [],
      'apps/r/src/people/p.ts': [],
      'apps/r/src/people/p.spec.ts': [],
      'libs/x/src/one/o.ts': [],
      'libs/x/src/two/t.ts': [],
    });
  });
});
