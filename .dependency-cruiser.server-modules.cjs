/**
 * No cycle between server modules (ADR 0036), type-only imports included: each module of apps/server/src/modules/
 * builds on the modules below it only. Checked over the modules alone: a cycle through lib/, plugins/, messaging/
 * or jobs/ needs one of them to import a module, which .dependency-cruiser.server.cjs forbids.
 * @type {import('dependency-cruiser').IConfiguration}
 */
const server = require('./.dependency-cruiser.server.cjs');

const MODULES = '^apps/server/src/modules/';

const knownViolations = [];

module.exports = {
  forbidden: [
    {
      name: 'server-module-cycle',
      comment:
        'No cycle between modules. Invert the dependency (the lower module takes a function from services.ts or ' +
        'app.ts) or move the shared piece down into lib/.',
      severity: 'error',
      scope: 'folder',
      from: { path: MODULES },
      to: { circular: true },
    },
  ],
  options: {
    ...server.options,
    includeOnly: MODULES,
    exclude: { path: [server.options.exclude.path, ...knownViolations].flat() },
  },
};
