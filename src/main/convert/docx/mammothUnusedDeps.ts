// mammoth requires JSZip (to open a package from bytes) and xmlbuilder (to write one) as it loads. The
// conversion worker hands mammoth packages opened by its own zip reader (docxPackage.ts) and never has
// it write one, so the worker's build resolves both packages to this module
// (electron.vite.worker.config.ts): about 330 KB of source (JSZip, pako, readable-stream, xmlbuilder)
// less to read and run at every worker start. Should a new use of mammoth reach them, it fails loudly.

function absent(library: string): () => never {
  return () => {
    throw new Error(`${library} is not part of Bureau's conversion worker (see mammothUnusedDeps.ts)`)
  }
}

/** `JSZip.loadAsync`, mammoth's only use of JSZip (zipfile.js `openArrayBuffer`). */
export const loadAsync = absent('JSZip')
/** `xmlbuilder.create`, mammoth's only use of xmlbuilder (xml/writer.js). */
export const create = absent('xmlbuilder')
