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
      comment:
        'A service imports another service only through its public index.ts, or its prestart.ts: what a command starts before anything else has loaded, which must not import the index (a static import of the index loads every module it names).',
      severity: 'error',
      from: { path: '^src/main/([^/]+)/' },
      to: {
        path: '^src/main/([^/]+)/.+',
        pathNot: ['^src/main/$1/', '^src/main/[^/]+/(index|prestart)\\.ts$'],
      },
    },
    {
      name: 'main-not-renderer',
      severity: 'error',
      from: { path: '^src/main/' },
      to: { path: '^src/(renderer|preload)/' },
    },
    {
      name: 'framework-imports-no-service',
      comment:
        'The tools framework (src/main/tools) stands on shared, platform and the workspace it hands to file toolsets; it imports no service above it, so it can be read and tested alone.',
      severity: 'error',
      from: { path: '^src/main/tools/' },
      to: { path: '^src/main/', pathNot: '^src/main/(tools|platform|workspace)/' },
    },
    {
      name: 'framework-sees-workspace-types-only',
      comment: 'The framework names the Workspace type in ToolContext; it never runs workspace code.',
      severity: 'error',
      from: { path: '^src/main/tools/' },
      to: { path: '^src/main/workspace/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'foundations-stay-below',
      comment:
        'Layer order: shared, platform < settings, workspace, llm < tools framework < toolsets < agent < app and transports. Foundations import nothing above them.',
      severity: 'error',
      from: { path: '^src/main/(platform|settings|workspace|llm)/' },
      to: {
        path: '^src/main/(tools|files|convert|knowledge|spreadsheet|browser|documents|mcp|email|toolsHost|agent|voice|eval|core|app|bridge|server|cli|electron)/',
      },
    },
    {
      name: 'toolsets-below-agent',
      comment: 'Toolsets and the toolset host know nothing of the agent, the app or the transports.',
      severity: 'error',
      from: {
        path: '^src/main/(tools|files|convert|knowledge|spreadsheet|browser|documents|mcp|email|toolsHost)/',
      },
      to: { path: '^src/main/(agent|voice|eval|core|app|bridge|server|cli|electron)/' },
    },
    {
      name: 'toolsets-not-host',
      comment: 'A toolset never imports the host that lists it (the host imports the toolsets).',
      severity: 'error',
      from: { path: '^src/main/(tools|files|convert|knowledge|spreadsheet|browser|documents|mcp|email)/' },
      to: { path: '^src/main/toolsHost/' },
    },
    {
      name: 'agent-below-transports',
      comment: 'The agent is wired by the composition root; it imports neither the root nor a transport.',
      severity: 'error',
      from: { path: '^src/main/(agent|voice)/' },
      to: { path: '^src/main/(toolsHost|core|app|bridge|server|cli|electron)/' },
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
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
    },
  },
}
