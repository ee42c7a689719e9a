// What exceljs 4.4.0 (pinned) holds per loaded cell, made smaller without changing a value or a style.
// A 50,000 x 12 sheet: about 60 MB less heap, and a lower peak while loading, because the changes apply as
// each cell is parsed and created rather than in a pass afterwards.

/**
 * The style of every loaded cell that has none. exceljs gives each such cell its own `{}` (56 bytes, a
 * third of a cell's own size); cells loaded with the same style id already share one object, so Bureau
 * changes styles only by replacing them (`restyle`), never in place. Frozen, so that a change in place
 * cannot restyle every unstyled cell at once.
 */
export const SHARED_EMPTY_STYLE: Readonly<Record<string, never>> = Object.freeze({})

interface CellModel {
  address?: string
  style?: Record<string, unknown>
}

interface CellLike {
  _address: string
  style: Readonly<Record<string, unknown>>
}

interface XmlNode {
  name: string
  attributes: Record<string, string>
}

interface CellXformLike {
  model: Record<string, unknown>
  t?: string
  parser?: unknown
}

function isEmpty(style: Readonly<Record<string, unknown>> | undefined): boolean {
  if (!style) return true
  for (const _ in style) return false
  return true
}

/**
 * The parser starts a cell's model as `{address}` and adds type, value, style id and style one by one:
 * V8 then keeps them in a separate property array (40 bytes a cell). Every slot in the first literal
 * (`style`, which the cell sets on each save, and `ssId`, which the save sets on text cells, included)
 * keeps them inside the object.
 */
function shapeParsedModels(prototype: { parseOpen(node: XmlNode): boolean }): void {
  const parseOpen = prototype.parseOpen
  prototype.parseOpen = function (this: CellXformLike, node: XmlNode): boolean {
    if (this.parser || node.name !== 'c') return parseOpen.call(this, node)
    const s = node.attributes.s
    this.model = {
      address: node.attributes.r,
      styleId: s ? Number.parseInt(s, 10) : undefined,
      type: undefined,
      value: undefined,
      style: undefined,
      // Set on every text cell by each save (its shared-string index); a slot here, not a spill array.
      ssId: undefined,
    }
    this.t = node.attributes.t
    return true
  }
}

/**
 * A loaded cell keeps the parsed model as its value model: its address is a second string equal to the
 * cell's own, and its style a fresh `{}` when it has none.
 */
function shareCellParts(prototype: object): void {
  const descriptor = Object.getOwnPropertyDescriptor(prototype, 'model')
  const get = descriptor?.get
  const set = descriptor?.set
  if (!get || !set) throw new Error('exceljs Cell.model is not an accessor (exceljs version changed?)')
  Object.defineProperty(prototype, 'model', {
    ...descriptor,
    get,
    set(this: CellLike, value: CellModel) {
      if (value.address === this._address) value.address = this._address
      set.call(this, value)
      if (this.style !== SHARED_EMPTY_STYLE && isEmpty(this.style)) this.style = SHARED_EMPTY_STYLE
    },
  })
}

interface RowModel {
  cells: { address?: unknown; type?: unknown }[]
}

interface RowLike {
  getCellEx(address: { address: string; col: number }): { model: unknown }
}

const MERGE = 1 // exceljs Enums.ValueType.Merge: merged cells are not created from the row model
const PLAIN_ADDRESS = /^[A-Z]{1,3}\d+$/

function columnOf(address: string): number {
  let col = 0
  for (let i = 0; i < address.length; i++) {
    const code = address.charCodeAt(i)
    if (code < 65) break
    col = col * 26 + code - 64
  }
  return col
}

/**
 * `Row.model`'s setter decodes each cell's address into a fresh object with two new strings (`A1`,
 * `$A$1`) only to read its column: about 80 bytes of garbage per cell, most of it outliving the young
 * generation because the whole sheet loads in one go. For rows whose cells all have plain addresses, the
 * cells are created from one reused address, named by the model's own string.
 */
function createCellsDirectly(prototype: object): void {
  const descriptor = Object.getOwnPropertyDescriptor(prototype, 'model')
  const set = descriptor?.set
  if (!descriptor || !set) throw new Error('exceljs Row.model is not an accessor (exceljs version changed?)')
  Object.defineProperty(prototype, 'model', {
    ...descriptor,
    set(this: RowLike, value: RowModel) {
      const cells = value.cells
      for (const cell of cells)
        if (cell.type !== MERGE && !(typeof cell.address === 'string' && PLAIN_ADDRESS.test(cell.address)))
          return set.call(this, value)
      set.call(this, { ...value, cells: [] })
      const scratch = { address: '', col: 0 }
      for (const cell of cells) {
        if (cell.type === MERGE) continue
        scratch.address = cell.address as string
        scratch.col = columnOf(scratch.address)
        this.getCellEx(scratch).model = cell
      }
    },
  })
}

let installed: Promise<void> | undefined

/** Installs the changes on exceljs's classes once per process (before the first load). */
export function installCompactCells(): Promise<void> {
  installed ??= (async () => {
    const [cell, row, cellXform] = await Promise.all([
      import('exceljs/lib/doc/cell.js'),
      import('exceljs/lib/doc/row.js'),
      import('exceljs/lib/xlsx/xform/sheet/cell-xform.js'),
    ])
    shareCellParts((cell.default ?? cell).prototype)
    createCellsDirectly((row.default ?? row).prototype)
    shapeParsedModels((cellXform.default ?? cellXform).prototype)
  })()
  return installed
}
