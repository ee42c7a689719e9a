/** Layering rules (see docs/architecture.md). Checked in `npm test` by `npm run depcheck`. */
module.exports = {
  forbidden: [
    {
      name: 'electron-only-in-shell',
      comment:
        'Only src/main/electron and the preload may import electron; everything else runs in plain Node.',
      severity: 'error',
      from: { pathNot: '^src/(main/electron|preload)/' },
      to: { path: '^electron$|node_modules/electron/' },
    },
    {
      name: 'renderer-only-shared',
      comment:
        'The renderer talks to main only through the contract: it may import src/shared, nothing else of ours.',
      severity: 'error',
      from: { path: '^src/renderer/' },
      to: { path: '^src/(main|preload)/' },
    },
    {
      name: 'renderer-no-node',
      comment: 'The renderer has no Node: no builtin modules.',
      severity: 'error',
      from: { path: '^src/renderer/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'preload-only-shared',
      severity: 'error',
      from: { path: '^src/preload/' },
      to: { path: '^src/(main|renderer)/' },
    },
    {
      name: 'shared-is-pure',
      comment: 'src/shared is imported by every layer: no Node builtins, no main/renderer/preload code.',
      severity: 'error',
      from: { path: '^src/shared/' },
      to: {
        path: '^src/(main|renderer|preload)/|^electron$',
        dependencyTypes: ['local', 'npm', 'npm-dev', 'core'],
      },
    },
    {
      name: 'shared-no-node-builtins',
      severity: 'error',
      from: { path: '^src/shared/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'services-through-index',
      comment: 'A service imports another service only through its public index.ts.',
      severity: 'error',
      from: { path: '^src/main/([^/]+)/' },
      to: {
        path: '^src/main/([^/]+)/.+',
        pathNot: ['^src/main/$1/', '^src/main/[^/]+/index\\.ts$'],
      },
    },
    {
      name: 'main-not-renderer',
      severity: 'error',
      from: { path: '^src/main/' },
      to: { path: '^src/(renderer|preload)/' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: false,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
    },
  },
}
