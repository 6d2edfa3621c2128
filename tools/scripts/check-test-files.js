#!/usr/bin/env node
// Fails when a test file would not run: every *.spec.ts, *.integration-spec.ts and
// *.e2e-spec.ts must sit in a project whose Jest config for that tier exists (and, for
// integration and e2e, whose project.json declares the target). Without this, a project's
// first integration spec is silently never run by `npm test`.
const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..', '..');
const TIERS = [
  { suffix: '.e2e-spec.ts', config: 'jest.e2e.config.js', target: 'e2e' },
  { suffix: '.integration-spec.ts', config: 'jest.integration.config.js', target: 'integration' },
  { suffix: '.spec.ts', config: 'jest.config.js', target: null },
];

function* testFiles(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* testFiles(full);
    else if (TIERS.some((tier) => entry.name.endsWith(tier.suffix))) yield full;
  }
}

function projectOf(file) {
  for (
    let dir = path.dirname(file);
    dir.startsWith(root) && dir !== root;
    dir = path.dirname(dir)
  ) {
    if (fs.existsSync(path.join(dir, 'project.json'))) return dir;
  }
  return null;
}

const problems = [];
for (const top of ['apps', 'libs', 'tools', 'deploy']) {
  for (const file of testFiles(path.join(root, top))) {
    const relative = path.relative(root, file);
    const tier = TIERS.find((candidate) => file.endsWith(candidate.suffix));
    const project = projectOf(file);
    if (!project) {
      problems.push(`${relative}: in no Nx project`);
      continue;
    }
    if (!fs.existsSync(path.join(project, tier.config))) {
      problems.push(`${relative}: ${path.relative(root, project)} has no ${tier.config}`);
    }
    if (tier.target) {
      const { targets = {} } = JSON.parse(
        fs.readFileSync(path.join(project, 'project.json'), 'utf8'),
      );
      if (!(tier.target in targets)) {
        problems.push(
          `${relative}: ${path.relative(root, project)}/project.json has no "${tier.target}" target`,
        );
      }
    }
  }
}
if (problems.length > 0) {
  console.error(`Test files that npm test would not run:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
