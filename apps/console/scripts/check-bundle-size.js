#!/usr/bin/env node
// The console's first-load budget (issue 12: at most 250 KB of compressed JS): gzips, at
// zlib's default level as a server compressing on the fly would, every JavaScript file that
// dist/apps/console/index.html loads up front (module scripts and modulepreload links; lazy
// route chunks are not first load) and fails above the budget. The console's Vite build runs
// it after writing the bundle, so `npm run build` and CI fail when the console grows past it.
//
// Usage: node apps/console/scripts/check-bundle-size.js [distDir] [--budget-bytes N]
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');

/** 250 KB in decimal kilobytes: the stricter reading of the figure. */
const BUDGET_BYTES = 250_000;
const DEFAULT_DIST = path.join(__dirname, '..', '..', '..', 'dist', 'apps', 'console');
const BASE = '/console/';

/** The URLs of the scripts index.html loads on first load, in document order. */
function firstLoadUrls(html) {
  const urls = [];
  for (const tag of html.match(/<(script|link)\b[^>]*>/gi) ?? []) {
    const isScript = /^<script/i.test(tag) && /type\s*=\s*["']module["']/i.test(tag);
    const isPreload = /^<link/i.test(tag) && /rel\s*=\s*["']modulepreload["']/i.test(tag);
    const url = /\b(?:src|href)\s*=\s*["']([^"']+)["']/i.exec(tag)?.[1];
    if ((isScript || isPreload) && url) urls.push(url);
  }
  return urls;
}

/** A URL under the console's base path, as a file of the build. */
function fileOf(distDir, url) {
  if (!url.startsWith(BASE)) {
    throw new Error(
      `index.html loads ${url}, outside ${BASE}: the console must load nothing from elsewhere`,
    );
  }
  return path.join(distDir, url.slice(BASE.length));
}

function measure(distDir) {
  const indexPath = path.join(distDir, 'index.html');
  if (!fs.existsSync(indexPath))
    throw new Error(`${indexPath} does not exist: build the console first`);
  const html = fs.readFileSync(indexPath, 'utf8');
  const files = firstLoadUrls(html).map((url) => {
    const file = fileOf(distDir, url);
    const content = fs.readFileSync(file);
    return { url, bytes: content.length, gzipBytes: zlib.gzipSync(content).length };
  });
  if (files.length === 0) throw new Error(`${indexPath} loads no JavaScript: not a console build`);
  return { files, totalGzipBytes: files.reduce((sum, file) => sum + file.gzipBytes, 0) };
}

const kb = (bytes) => `${(bytes / 1000).toFixed(1)} KB`;

/** Measures the build, prints the figure, and throws when it is over the budget. */
function checkBundleSize(distDir = DEFAULT_DIST, budgetBytes = BUDGET_BYTES) {
  const { files, totalGzipBytes } = measure(distDir);
  const lines = files.map((file) => `  ${file.url}  ${kb(file.bytes)}, ${kb(file.gzipBytes)} gzip`);
  const summary = `console first-load JS: ${kb(totalGzipBytes)} gzip of a ${kb(budgetBytes)} budget (${files.length} files)`;
  if (totalGzipBytes > budgetBytes) {
    throw new Error(`${summary}: over budget\n${lines.join('\n')}`);
  }
  console.log(`${summary}\n${lines.join('\n')}`);
  return { files, totalGzipBytes };
}

module.exports = { BUDGET_BYTES, checkBundleSize, firstLoadUrls };

if (require.main === module) {
  const args = process.argv.slice(2);
  const budgetAt = args.indexOf('--budget-bytes');
  const budget = budgetAt >= 0 ? Number(args.splice(budgetAt, 2)[1]) : BUDGET_BYTES;
  try {
    checkBundleSize(args[0] ? path.resolve(args[0]) : DEFAULT_DIST, budget);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
