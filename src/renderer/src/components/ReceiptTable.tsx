import { type AreaReceipt, columnName, displayValue, rangeStart } from './areaReceipt'

const MAX_ROWS = 20
const MAX_COLUMNS = 12

/** The cells a spreadsheet method touched, as a small grid with column letters and row numbers. */
export function ReceiptTable({ receipt }: { receipt: AreaReceipt }) {
  const start = rangeStart(receipt.range)
  const rows = receipt.values.slice(0, MAX_ROWS)
  const width = Math.max(0, ...receipt.values.map((row) => row.length))
  const columns = Array.from({ length: Math.min(width, MAX_COLUMNS) }, (_, i) => start.column + i)
  const hiddenRows = receipt.values.length - rows.length
  const hiddenColumns = width - columns.length

  return (
    <figure className="receipt">
      <figcaption>
        <span className="receipt-sheet">{receipt.sheet}</span>{' '}
        <span className="receipt-range">{receipt.range}</span>
      </figcaption>
      <div className="table-scroll">
        <table className="receipt-table">
          <thead>
            <tr>
              <td className="receipt-corner" />
              {columns.map((column) => (
                <th key={column} scope="col">
                  {columnName(column)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row, r) => {
              const rowNumber = start.row + r
              return (
                <tr key={rowNumber}>
                  <th scope="row">{rowNumber}</th>
                  {columns.map((column, c) => {
                    const address = `${columnName(column)}${rowNumber}`
                    const formula = receipt.formulas?.[address]
                    const value = displayValue(row[c])
                    const numeric = typeof row[c] === 'number' || /^[-+]?[\d.,]+%?$/.test(value)
                    return (
                      <td
                        key={address}
                        className={
                          [formula ? 'has-formula' : '', numeric ? 'numeric' : ''].join(' ').trim() ||
                          undefined
                        }
                        title={formula ? `${address}: ${formula}` : address}
                        data-cell={address}
                      >
                        {value}
                      </td>
                    )
                  })}
                </tr>
              )
            })}
          </tbody>
        </table>
      </div>
      {(hiddenRows > 0 || hiddenColumns > 0) && (
        <p className="receipt-more muted">
          {hiddenRows > 0 && `${hiddenRows} more row${hiddenRows === 1 ? '' : 's'}`}
          {hiddenRows > 0 && hiddenColumns > 0 && ', '}
          {hiddenColumns > 0 && `${hiddenColumns} more column${hiddenColumns === 1 ? '' : 's'}`}
        </p>
      )}
    </figure>
  )
}
