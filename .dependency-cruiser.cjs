/** Layering rules (see docs/architecture.md). Checked in `npm test` by `npm run depcheck`. */
/**
 * The layers of src/main and src/shared, lowest first, as an allow-list: every folder is in exactly one layer
 * and imports only its own layer and the layers named in `may`. A folder in no layer fails `layer-unplaced`
 * (and test/scripts/layers.test.ts) until it is placed here. docs/architecture.md shows this table; a test
 * checks the two agree.
 */
const LAYERS = [
  {
    name: 'shared',
    root: 'shared',
    folders: [
      'async',
      'automations',
      'chat',
      'errors',
      'files',
      'ipc',
      'json',
      'memory',
      'settings',
      'voice',
    ],
    may: [],
    what: 'Types, schemas and the IPC contract every process shares; no Node, no main code.',
  },
  {
    name: 'platform',
    folders: ['platform', 'appVersion.ts'],
    may: ['shared'],
    what: 'Logging, notices, paths, the IPC router and event bus.',
  },
  {
    name: 'foundations',
    folders: ['settings', 'workspace', 'models'],
    may: ['shared', 'platform'],
    what: 'Settings, the sandboxed workspace, the local model files.',
  },
  {
    name: 'llm',
    folders: ['llm'],
    may: ['shared', 'platform', 'foundations'],
    what: 'Model providers (cloud, Ollama, llama.cpp) behind one interface.',
  },
  {
    name: 'framework',
    folders: ['tools'],
    may: ['shared', 'platform', 'foundations'],
    what: 'The typed tool framework: declaring, resolving and invoking toolset methods.',
  },
  {
    name: 'toolsets',
    folders: [
      'files',
      'convert',
      'knowledge',
      'spreadsheet',
      'browser',
      'documents',
      'mcp',
      'email',
      'calendar',
      'memory',
      'automations',
    ],
    may: ['shared', 'platform', 'foundations', 'llm', 'framework'],
    what: 'What the agent can do: one folder a toolset (or the service behind it).',
  },
  {
    name: 'toolsHost',
    folders: ['toolsHost'],
    may: ['shared', 'platform', 'foundations', 'llm', 'framework', 'toolsets'],
    what: 'Lists the built-in toolsets and plugins and hands them to a run.',
  },
  {
    name: 'agent',
    folders: ['agent', 'voice', 'eval', 'preview'],
    may: ['shared', 'platform', 'foundations', 'llm', 'framework', 'toolsets'],
    what: 'The agent loop and chat service, voice around it, the eval that measures it.',
  },
  {
    name: 'composition',
    folders: ['core', 'app'],
    may: ['shared', 'platform', 'foundations', 'llm', 'framework', 'toolsets', 'toolsHost', 'agent'],
    what: 'The composition root: builds the services and the IPC handler map.',
  },
  {
    name: 'transports',
    folders: ['bridge', 'server', 'cli', 'electron'],
    may: [
      'shared',
      'platform',
      'foundations',
      'llm',
      'framework',
      'toolsets',
      'toolsHost',
      'agent',
      'composition',
    ],
    what: 'How the app is reached: Electron window, HTTP host, CLI, bridge.',
  },
]

const escapeDots = (name) => name.replace(/\./g, '\\.')
/** A path pattern for a layer's folders (a file such as appVersion.ts stands for itself). */
function layerPath(layer) {
  const names = layer.folders.map((f) => (f.endsWith('.ts') ? `${escapeDots(f)}$` : `${f}/`))
  return `^src/${layer.root ?? 'main'}/(${names.join('|')})`
}
const byName = new Map(LAYERS.map((layer) => [layer.name, layer]))
const layerRules = LAYERS.map((layer) => ({
  name: `layer-${layer.name}`,
  comment: `${layer.what} May import: ${[layer.name, ...layer.may].join(', ')}.`,
  severity: 'error',
  from: { path: layerPath(layer) },
  to: {
    path: '^src/(main|shared)/',
    pathNot: [layer.name, ...layer.may].map((name) => layerPath(byName.get(name))),
  },
}))
const unplaced = {
  name: 'layer-unplaced',
  comment:
    'Every folder under src/main and src/shared is in exactly one layer of LAYERS: place a new one there.',
  severity: 'error',
  from: { path: '^src/(main|shared)/', pathNot: LAYERS.map(layerPath) },
  to: {},
}

module.exports = {
  forbidden: [
    ...layerRules,
    unplaced,
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
      name: 'renderer-tsx-not-client',
      comment:
        'Everything gets the host client from <BureauProvider> through hooks (useBureau()); only main.tsx, which makes the provider, imports the client module.',
      severity: 'error',
      from: { path: '^src/renderer/', pathNot: '^src/renderer/src/main\\.tsx$' },
      to: { path: '^src/renderer/src/ipc/bureauClient\\.ts$' },
    },
    {
      name: 'renderer-tsx-through-hooks',
      comment:
        'Components reach the host only through the per-domain hooks (*Api.ts, use*.ts): a .tsx file other than main.tsx may not take the client from useBureau() itself.',
      severity: 'error',
      from: { path: '^src/renderer/.+\\.tsx$', pathNot: '^src/renderer/src/(main\\.tsx|ipc/)' },
      to: { path: '^src/renderer/src/ipc/BureauProvider\\.tsx$' },
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
      name: 'framework-not-contract',
      comment:
        'The tool framework knows no IPC route: the types it shares with the contract live in src/shared/chat.',
      severity: 'error',
      from: { path: '^src/main/tools/' },
      to: { path: '^src/shared/ipc/' },
    },
    {
      name: 'framework-sees-workspace-types-only',
      comment: 'The framework names the Workspace type in ToolContext; it never runs workspace code.',
      severity: 'error',
      from: { path: '^src/main/tools/' },
      to: { path: '^src/main/workspace/', dependencyTypesNot: ['type-only'] },
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
// Not a dependency-cruiser option: read by test/scripts/layers.test.ts and the layer table's test.
Object.defineProperty(module.exports, 'layers', { value: LAYERS, enumerable: false })
