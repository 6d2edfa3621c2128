// Adds lock-file entries for optional, platform-specific binaries (darwin, win32, musl, ...)
// that the registry this project installs from does not carry. npm 11's `npm ci` refuses a
// lock file that lacks them, although it never installs them on Linux x64. Each entry gets
// the package's os/cpu/libc so npm skips it on every other platform, exactly as it skips the
// entries of a lock file written on another machine. Run after `npm install` changes the lock.
const fs = require('node:fs');
const path = require('node:path');

const lockPath = path.join(__dirname, '..', '..', 'package-lock.json');
const lock = JSON.parse(fs.readFileSync(lockPath, 'utf8'));
const packages = lock.packages;

const OS = ['darwin', 'win32', 'linux', 'freebsd', 'android', 'openharmony', 'sunos', 'aix'];
const CPU = ['arm64', 'x64', 'ia32', 'arm', 'ppc64', 's390x', 'riscv64', 'loong64', 'wasm32'];

function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const os = parts.find((part) => OS.includes(part));
  const cpu = parts.find((part) => CPU.includes(part));
  if (!os || !cpu) return null;
  const platform = { os: [os], cpu: [cpu] };
  if (os === 'linux') {
    platform.libc = [parts.some((part) => part.startsWith('musl')) ? 'musl' : 'glibc'];
  }
  return platform;
}

function resolves(fromPath, name) {
  for (let dir = fromPath; ; dir = dir.slice(0, dir.lastIndexOf('/node_modules/'))) {
    if (packages[`${dir ? `${dir}/` : ''}node_modules/${name}`]) return true;
    if (!dir.includes('/node_modules/')) return Boolean(packages[`node_modules/${name}`]);
  }
}

let added = 0;
for (const [location, entry] of Object.entries(packages)) {
  for (const [name, spec] of Object.entries(entry.optionalDependencies ?? {})) {
    if (resolves(location, name)) continue;
    const platform = platformOf(name);
    if (!platform || !/^\d+\.\d+\.\d+/.test(spec)) continue;
    const target = packages[`node_modules/${name}`]
      ? `${location}/node_modules/${name}`
      : `node_modules/${name}`;
    packages[target] = { version: spec, ...platform, optional: true };
    added += 1;
  }
}

const sorted = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
);
lock.packages = sorted;
fs.writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`complete-lockfile: added ${added} platform entries`);
