// pdfjs-dist ships no types for the worker module; only its presence matters to convertPdf.
declare module 'pdfjs-dist/legacy/build/pdf.worker.mjs' {
  export const WorkerMessageHandler: unknown
}
