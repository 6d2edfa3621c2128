// The console's build (docs/adr/0013-console-stack.md): static files in dist/apps/console,
// served by the gateway under /console, checked against the first-load budget once written.
import react from '@vitejs/plugin-react';
import path from 'node:path';
import { defineConfig } from 'vite';
import bundleSize from './scripts/check-bundle-size.js';
import compression from './scripts/precompress.js';

const outDir = '../../dist/apps/console';

/**
 * Fails the build when the JS index.html loads up front is over the budget, then writes the
 * compressed siblings the gateway serves.
 */
function firstLoadBudget() {
  return {
    name: 'custodian:first-load-budget',
    apply: 'build',
    closeBundle() {
      const dist = path.resolve(import.meta.dirname, outDir);
      bundleSize.checkBundleSize(dist);
      compression.precompress(dist);
    },
  };
}

export default defineConfig({
  root: import.meta.dirname,
  base: '/console/',
  // Vite's default is <root>/node_modules/.vite, which would create apps/console/node_modules.
  cacheDir: '../../node_modules/.vite/console',
  plugins: [react(), firstLoadBudget()],
  // The contract's constants (plain lists, no decorators): the one runtime import of a lib.
  resolve: {
    alias: {
      '@custodian/contracts/constants': path.resolve(
        import.meta.dirname,
        '../../libs/contracts/src/constants.ts',
      ),
    },
  },
  build: { outDir, emptyOutDir: true },
  // `nx dev console` against a gateway on its default port, which serves /console/api.
  server: { proxy: { '/console/api': 'http://localhost:3000' } },
});
