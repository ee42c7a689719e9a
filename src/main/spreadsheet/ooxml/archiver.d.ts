// Local typings for archiver 5 (the package ships none); only what the package writer uses.
declare module 'archiver' {
  import type { Readable } from 'node:stream'

  interface Archiver extends Readable {
    append(source: Buffer, data: { name: string }): this
    finalize(): Promise<void>
  }
  function archiver(format: 'zip', options?: { zlib?: { level?: number } }): Archiver
  export default archiver
}
