import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const script = path.join(__dirname, 'check-bundle-size.js');
const dirs: string[] = [];

/** A build directory with index.html and the given assets (random bytes do not compress). */
function fakeBuild(head: string, assets: Record<string, number>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'console-bundle-'));
  dirs.push(dir);
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'index.html'), `<!doctype html><html><head>${head}</head></html>`);
  for (const [name, size] of Object.entries(assets)) {
    writeFileSync(path.join(dir, 'assets', name), randomBytes(size));
  }
  return dir;
}

function check(dir: string) {
  const run = spawnSync(process.execPath, [script, dir], { encoding: 'utf8' });
  return { status: run.status, output: run.stdout + run.stderr };
}

const entry = '<script type="module" crossorigin src="/console/assets/index.js"></script>';
const preload = (name: string) =>
  `<link rel="modulepreload" crossorigin href="/console/assets/${name}">`;

afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe('check-bundle-size', () => {
  it('passes a first load under 250 KB and prints its gzip size', () => {
    const { status, output } = check(fakeBuild(entry, { 'index.js': 100_000 }));
    expect(status).toBe(0);
    expect(output).toMatch(
      /console first-load JS: 100\.\d KB gzip of a 250\.0 KB budget \(1 files\)/,
    );
  });

  it('fails above 250 KB, naming each file', () => {
    const { status, output } = check(fakeBuild(entry, { 'index.js': 260_000 }));
    expect(status).toBe(1);
    expect(output).toContain('over budget');
    expect(output).toContain('/console/assets/index.js');
  });

  it('counts modulepreload links but not the chunks loaded later', () => {
    const lazy = { 'index.js': 10_000, 'vendor.js': 150_000, 'route.js': 200_000 };
    expect(check(fakeBuild(entry + preload('vendor.js'), lazy)).status).toBe(0);
    const both = check(fakeBuild(entry + preload('vendor.js') + preload('route.js'), lazy));
    expect(both.status).toBe(1);
    expect(both.output).toContain('(3 files)');
  });

  it('refuses a script from outside /console/ (no CDN)', () => {
    const cdn = '<script type="module" src="https://cdn.example.com/react.js"></script>';
    const { status, output } = check(fakeBuild(entry + cdn, { 'index.js': 1_000 }));
    expect(status).toBe(1);
    expect(output).toContain('https://cdn.example.com/react.js, outside /console/');
  });
});
