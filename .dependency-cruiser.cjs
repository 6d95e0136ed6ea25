/**
 * Web feature boundaries (docs/architecture.md, under the layout). A feature under apps/web/src/features/<x>/ reaches
 * another feature only through that feature's public api.ts; shared widgets live in components/, shared helpers in
 * lib/, and neither knows about features (data comes in through props). Routes compose features.
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: 'feature-internals',
      comment:
        'A feature imports another feature only through its api.ts. Move what both need to components/ or lib/, or compose them in a route.',
      severity: 'error',
      from: { path: '^apps/web/src/features/([^/]+)/' },
      to: {
        path: '^apps/web/src/features/',
        pathNot: ['^apps/web/src/features/$1/', '^apps/web/src/features/[^/]+/api\\.ts$'],
      },
    },
    {
      name: 'shared-imports-feature',
      comment:
        'components/ and lib/ are shared by every feature, so they must not depend on one: pass data through props.',
      severity: 'error',
      from: { path: '^apps/web/src/(components|lib)/' },
      to: { path: '^apps/web/src/(features|routes)/' },
    },
    {
      name: 'feature-imports-route',
      comment: 'Routes compose features, never the other way round.',
      severity: 'error',
      from: { path: '^apps/web/src/features/' },
      to: { path: '^apps/web/src/routes/' },
    },
    {
      name: 'no-circular',
      comment:
        'No import cycles in the web app. Type-only imports are erased at build time, so a cycle through one cannot break module start-up.',
      severity: 'error',
      from: { path: '^apps/web/src/' },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
  ],
  options: {
    includeOnly: '^apps/web/src/',
    exclude: { path: '^apps/web/src/routeTree\\.gen\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'apps/web/tsconfig.json' },
    enhancedResolveOptions: {
      extensions: ['.ts', '.tsx', '.js', '.mjs'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
