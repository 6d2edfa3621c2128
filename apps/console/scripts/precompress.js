#!/usr/bin/env node
// Writes Brotli (.br) and gzip (.gz) siblings of the console's text files once, at build time,
// so the gateway (@fastify/static with preCompressed) sends them as they are instead of
// compressing on every request or sending the raw bytes. Brotli at its highest quality costs a
// second at build time and nothing per request. A sibling that would not be smaller is not
// written: @fastify/static then sends the original.
//
// Usage: node apps/console/scripts/precompress.js [distDir]
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|map)$/;
/** Below this, headers outweigh what compression saves. */
const MIN_BYTES = 1024;
const DEFAULT_DIST = path.join(__dirname, '..', '..', '..', 'dist', 'apps', 'console');

function* files(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (COMPRESSIBLE.test(entry.name)) yield full;
  }
}

/** Compresses every text file of `distDir`; returns [file, raw, gzip, brotli] byte counts. */
function precompress(distDir) {
  const written = [];
  for (const file of files(distDir)) {
    const raw = fs.readFileSync(file);
    if (raw.length < MIN_BYTES) continue;
    const gzip = zlib.gzipSync(raw, { level: zlib.constants.Z_BEST_COMPRESSION });
    const brotli = zlib.brotliCompressSync(raw, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
      },
    });
    if (gzip.length < raw.length) fs.writeFileSync(`${file}.gz`, gzip);
    if (brotli.length < raw.length) fs.writeFileSync(`${file}.br`, brotli);
    written.push([path.relative(distDir, file), raw.length, gzip.length, brotli.length]);
  }
  return written;
}

module.exports = { precompress };

if (require.main === module) {
  const dist = path.resolve(process.argv[2] ?? DEFAULT_DIST);
  for (const [file, raw, gzip, brotli] of precompress(dist)) {
    console.log(`${file}: ${raw} B raw, ${gzip} B gzip, ${brotli} B brotli`);
  }
}
