// Local typings for the parts of exceljs 4.4.0's XLSX writer that `writeWorkbookParts.ts` drives
// directly (the package types only its public API). Pinned version: a change shows in the save tests.
declare module 'exceljs/lib/utils/xml-stream.js' {
  class XmlStream {
    protected _xml: string[]
    protected _rollbacks: unknown[]
    get cursor(): number
    get xml(): string
    openNode(name: string, attributes?: Record<string, unknown>): void
    closeAll(): void
  }
  export = XmlStream
}

declare module 'exceljs/lib/xlsx/xform/sheet/worksheet-xform.js' {
  class WorksheetXform {
    render(stream: import('exceljs/lib/utils/xml-stream.js'), model: unknown): void
  }
  export = WorksheetXform
}

declare module 'exceljs/lib/xlsx/xform/core/relationships-xform.js' {
  class RelationshipsXform {
    render(stream: import('exceljs/lib/utils/xml-stream.js'), model: unknown): void
  }
  export = RelationshipsXform
}

declare module 'exceljs/lib/xlsx/xform/comment/comments-xform.js' {
  class CommentsXform {
    render(stream: import('exceljs/lib/utils/xml-stream.js'), model: unknown): void
  }
  export = CommentsXform
}

declare module 'exceljs/lib/xlsx/xform/comment/vml-notes-xform.js' {
  class VmlNotesXform {
    render(stream: import('exceljs/lib/utils/xml-stream.js'), model: unknown): void
  }
  export = VmlNotesXform
}

declare module 'exceljs/lib/doc/cell.js' {
  const Cell: { prototype: object }
  export = Cell
}

declare module 'exceljs/lib/doc/row.js' {
  const Row: { prototype: object }
  export = Row
}

declare module 'exceljs/lib/xlsx/xform/sheet/cell-xform.js' {
  const CellXform: {
    prototype: { parseOpen(node: { name: string; attributes: Record<string, string> }): boolean }
  }
  export = CellXform
}

declare module 'exceljs/lib/xlsx/xform/strings/shared-strings-xform.js' {
  const Xform: new () => unknown
  export = Xform
}

declare module 'exceljs/lib/xlsx/xform/style/styles-xform.js' {
  const Xform: new () => unknown
  export = Xform
}

declare module 'exceljs/lib/xlsx/xform/core/app-xform.js' {
  const Xform: new () => unknown
  export = Xform
}

declare module 'exceljs/lib/xlsx/xform/core/core-xform.js' {
  const Xform: new () => unknown
  export = Xform
}
