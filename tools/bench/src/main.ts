import 'reflect-metadata';
import { benchAudit } from './audit';
import { benchBulk } from './bulk';
import { benchContext } from './context-cost';
import { benchDueSweep } from './due-sweep';
import { benchIdle } from './idle';
import { benchExport, benchFeed, benchImport } from './integrating';
import { benchLimits } from './limits';
import { benchObservability } from './observability';
import { benchRace } from './race';
import { benchReads } from './reads';
import { benchRpc } from './rpc';
import { benchWebhooks } from './webhooks';

const BENCHES: Record<string, () => Promise<void>> = {
  reads: benchReads,
  limits: benchLimits,
  webhooks: benchWebhooks,
  rpc: benchRpc,
  observability: benchObservability,
  context: benchContext,
  idle: benchIdle,
  race: benchRace,
  'due-sweep': benchDueSweep,
  audit: benchAudit,
  bulk: benchBulk,
  feed: benchFeed,
  export: benchExport,
  import: benchImport,
};

/** `npm run bench -- <name>`: benchmarks report numbers; they assert nothing. */
async function main(): Promise<void> {
  const name = process.argv[2] ?? '';
  const bench = BENCHES[name];
  if (!bench) {
    console.error(`usage: npm run bench -- <${Object.keys(BENCHES).join('|')}>`);
    process.exit(2);
  }
  await bench();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
