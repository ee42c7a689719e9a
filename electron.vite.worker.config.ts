import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { defineConfig } from 'electron-vite'
import { bundledLicenses } from './scripts/bundledLicenses'

// The document-conversion worker, built apart from the app as CommonJS (out/worker/*.cjs): on Node 20
// only a script compiled through `vm.Script` can be given V8's cached bytecode, and the worker's entry
// (workerMain.ts) compiles its own files that way (convert/worker/codeCache.ts). Its libraries are
// bundled (a few files are still read from node_modules: chardet, PDFium's .wasm), except two
// that mammoth loads and the worker never uses (src/main/convert/docx/mammothUnusedDeps.ts). The output
// is ASCII (non-ASCII characters escaped) with JSDoc comments left out: Node reads a file that is all
// ASCII into a one-byte string, about 2 ms faster for the .docx chunk at each worker start and half the
// memory, and there is less of it to read and hash. underscore (mammoth's) is bundled from the CommonJS
// file Node itself loads for mammoth's `require`: its ES-module build is 161 modules, each with its
// start-up wrapper, and mammoth's every `_.x` call went through two getters of the modules' namespaces
// (cold 20-.docx CLI batch: ~-35 ms wall, ~-60 ms CPU).
const pkg = JSON.parse(readFileSync(resolve(__dirname, 'package.json'), 'utf8')) as { version: string }
const mammothUnusedDeps = resolve(__dirname, 'src/main/convert/docx/mammothUnusedDeps.ts')

export default defineConfig({
  main: {
    define: { __BUREAU_VERSION__: JSON.stringify(pkg.version) },
    plugins: [bundledLicenses()],
    resolve: {
      alias: {
        jszip: mammothUnusedDeps,
        xmlbuilder: mammothUnusedDeps,
        underscore: resolve(__dirname, 'node_modules/underscore/underscore-node.cjs'),
      },
    },
    build: {
      outDir: 'out/worker',
      externalizeDeps: false,
      rollupOptions: {
        input: { workerMain: resolve(__dirname, 'src/main/convert/worker/workerMain.ts') },
        output: {
          format: 'cjs',
          entryFileNames: '[name].cjs',
          chunkFileNames: '[name]-[hash].cjs',
          charset: 'ascii',
          // A script compiled from V8's code cache has no dynamic-import callback on Node 20 (the
          // `import()` fails), so a library's `import('module')` (PDFium's Emscripten glue) is a require.
          dynamicImportInCjs: false,
          comments: { legal: true, annotation: true, jsdoc: false },
        },
        treeshake: { moduleSideEffects: (id: string) => !id.includes('/src/') },
      },
    },
  },
})
