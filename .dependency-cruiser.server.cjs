/**
 * Server boundaries (ADR 0036), checked by `npm run lint:deps` in `npm test`'s first stage:
 *   - no import cycle between files, type-only imports included (a cycle through a type is still two files that
 *     cannot be understood apart); cycles between modules: .dependency-cruiser.server-modules.cjs;
 *   - infrastructure (lib/, plugins/, messaging/, jobs/) never imports a module, nor the two files that assemble them
 *     (services.ts, app.ts): what a plugin needs from a module is passed in by app.ts, or lives below both in lib/;
 *   - a module (modules/<m>/) is imported from outside only through its public entry, modules/<m>/index.ts;
 *   - route files (routes.ts, *-routes.ts) never import the database (@veriform/db, drizzle-orm): they call services.
 * Tests and test support (*.test.ts, test-support/, security/'s fuzzing helpers) may reach anything.
 * @type {import('dependency-cruiser').IConfiguration}
 */

const SRC = '^apps/server/src/';
const TESTS = [
  `${SRC}.*\\.test(-support)?\\.ts$`,
  `${SRC}test-support/`,
  `${SRC}security/`,
  `${SRC}.*/test-helpers\\.ts$`,
];
const INFRASTRUCTURE = `${SRC}(lib|plugins|messaging|jobs)/`;

const knownViolations = [];

const exempt = (rule, key) =>
  knownViolations.filter((known) => known.rule === rule && known[key]).map((known) => known[key]);

/** A cycle through none of `paths`; dependency-cruiser joins other lists of expressions, not viaOnly's: one here. */
const viaOnlyNot = (paths) => (paths.length > 0 ? { viaOnly: { pathNot: paths.join('|') } } : {});

module.exports = {
  forbidden: [
    {
      name: 'server-no-circular',
      comment:
        'No import cycle between files, type-only imports included. Move what both need to a third file, or pass it in.',
      severity: 'error',
      from: { path: SRC, pathNot: TESTS },
      to: { circular: true, ...viaOnlyNot(exempt('server-no-circular', 'via')) },
    },
    {
      name: 'server-infrastructure-imports-module',
      comment:
        'lib/, plugins/, messaging/ and jobs/ sit below the modules: they never import one, nor services.ts or app.ts ' +
        'that assemble them. Have app.ts pass the piece in, or move it down into lib/.',
      severity: 'error',
      from: {
        path: INFRASTRUCTURE,
        pathNot: [...TESTS, ...exempt('server-infrastructure-imports-module', 'from')],
      },
      to: { path: `${SRC}(modules/|services\\.ts$|app\\.ts$)` },
    },
    {
      name: 'server-module-entry',
      comment:
        'A module is reached from outside only through modules/<m>/index.ts, its public entry; export what others ' +
        'need there.',
      severity: 'error',
      from: {
        path: SRC,
        pathNot: [...TESTS, `${SRC}modules/([^/]+)/`, ...exempt('server-module-entry', 'from')],
      },
      to: {
        path: `${SRC}modules/[^/]+/`,
        pathNot: [`${SRC}modules/[^/]+/index\\.ts$`, ...exempt('server-module-entry', 'to')],
      },
    },
    {
      name: 'server-module-entry',
      comment: 'As above, from one module to another: only through the other module’s index.ts.',
      severity: 'error',
      from: { path: `${SRC}modules/([^/]+)/`, pathNot: [...TESTS, ...exempt('server-module-entry', 'from')] },
      to: {
        path: `${SRC}modules/[^/]+/`,
        pathNot: [
          `${SRC}modules/$1/`,
          `${SRC}modules/[^/]+/index\\.ts$`,
          ...exempt('server-module-entry', 'to'),
        ],
      },
    },
    {
      name: 'server-route-imports-database',
      comment: 'Route files read the request and call services; the queries live in the services.',
      severity: 'error',
      from: {
        path: `${SRC}.+(/|-)routes\\.ts$`,
        pathNot: [...TESTS, ...exempt('server-route-imports-database', 'from')],
      },
      to: { path: ['^packages/db/', '(^|/)node_modules/drizzle-orm/', '^drizzle-orm'] },
    },
  ],
  options: {
    includeOnly: ['^apps/server/src/', '^packages/db/src/index\\.ts$', '(^|/)node_modules/drizzle-orm/'],
    // Tests may reach anything (they build the whole app): they are not part of the graph the rules read.
    exclude: { path: TESTS },
    doNotFollow: { path: ['node_modules', '^packages/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      extensions: ['.ts', '.js', '.mjs'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
