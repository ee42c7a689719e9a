// The package's own d.ts declares a module named 'domino', not '@mixmark-io/domino'.
declare module '@mixmark-io/domino' {
  export function createDocument(html?: string, force?: boolean): Document
}
