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

// Any other xform (shared strings, styles, app and core properties for `exceljsLoad.ts`): a class whose
// instances the load routine drives; the modules named above keep their more precise shapes.
declare module 'exceljs/lib/xlsx/xform/*' {
  const Xform: new () => unknown
  export = Xform
}

declare module 'exceljs/lib/utils/utils.js' {
  const utils: {
    isDateFmt(format: string | undefined): boolean
    excelToDate(serial: number, date1904: boolean): Date
  }
  export = utils
}

declare module 'exceljs/lib/xlsx/xform/sheet/row-xform.js' {
  class RowXform {
    constructor(options?: { maxItems?: number })
    reconcile(model: unknown, options: unknown): void
  }
  export = RowXform
}

declare module 'exceljs/lib/xlsx/xform/list-xform.js' {
  class ListXform {
    constructor(options: { tag: string; count: boolean; empty: boolean; childXform: unknown })
    parseStream(stream: AsyncIterable<string>): Promise<unknown>
  }
  export = ListXform
}
