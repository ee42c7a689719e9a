// Writes the eval suite's PDFs and photos (run: npx tsx eval/scripts/buildDocs.ts; needs Chromium):
// fixtures/docs/receipt.pdf (a till receipt), fixtures/docs/inventory.pdf (a report with a borderless
// table), fixtures/files/photo.jpg and photo2.jpg (pictures with text, askew and noisy, for OCR).
// Chromium prints and photographs HTML written here. The files are committed; this script documents how
// they were made and rebuilds them the same way.
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { chromium } from 'playwright-core'

const fixtures = fileURLToPath(new URL('../fixtures/', import.meta.url))
const CHROMIUM = process.env.BUREAU_CHROMIUM ?? '/usr/bin/chromium'

const money = (value: number) => `$${value.toLocaleString('en-US', { minimumFractionDigits: 2 })}`

// The figures the tasks check (doc-answer-pdf: total and tax; the subtotal is the plausible mistake).
const items: [string, string, number, number][] = [
  ['Cordless Drill 18V', 'HW-2201', 1, 349.99],
  ['LED Work Light', 'HW-4410', 2, 79.99],
  ['Rolling Tool Chest', 'HW-7702', 1, 289.0],
  ['Safety Glasses', 'HW-1150', 1, 25.97],
  ['Sanding Pack 120 grit', 'HW-3318', 3, 12.99],
]
const subtotal = 863.91
const discount = 84.0
const tax = 66.23
const rewards = 25.0
const total = 821.14

function receiptHtml(): string {
  const sum = items.reduce((s, [, , qty, price]) => s + qty * price, 0)
  if (Math.abs(sum - subtotal) > 0.001) throw new Error(`items add up to ${sum}, not ${subtotal}`)
  if (Math.abs(subtotal - discount + tax - rewards - total) > 0.001)
    throw new Error('the total does not add up')
  const lines = items
    .map(
      ([name, sku, qty, price]) =>
        `<div>${name}</div><div class="row"><span>${sku} ${qty} @ ${money(price)}</span><span>${money(qty * price)}</span></div>`,
    )
    .join('')
  const row = (label: string, value: string) =>
    `<div class="row"><span>${label}</span><span>${value}</span></div>`
  return `<!doctype html><html><head><meta charset="utf-8"><style>
body{font:11pt "DejaVu Sans Mono",monospace;width:78mm;margin:6mm auto}
.c{text-align:center}.row{display:flex;justify-content:space-between}hr{border:0;border-top:1px dashed #000}
</style></head><body>
<div class="c"><b>HARBOUR HARDWARE</b><br>12 Quay Street<br>Portsmouth, NH 03801<br>(603) 555-0147</div><hr>
<div>Store #17 - Quayside</div><div>03/14/2025 10:42:07</div><div>Receipt: HH-17-55210</div><div>Cashier: Tomas Reid</div><hr>
${lines}<hr>
${row('SUBTOTAL', money(subtotal))}
${row('Member Discount (10%)', `-${money(discount)}`)}
${row('Sales Tax', money(tax))}
${row('Rewards Applied', `-${money(rewards)}`)}<hr>
${row('<b>TOTAL</b>', `<b>${money(total)}</b>`)}<hr>
<div>PAID BY CARD ending in 2231</div><div class="c">Thank you for shopping with us</div>
</body></html>`
}

// The "Extended Inventory Review" table the tasks copy (doc-pdf-table-to-xlsx, multi-pdf-to-chart).
const review: [string, string, number, number, string, string][] = [
  ['SKU-8847', 'Electronics', 45, 13005, '2024-10-15', ''],
  ['SKU-9201', 'Hardware', 32.5, 25285, '2024-10-22', 'Verified'],
  ['SKU-4563', 'Software', 120, 18720, '', 'Critical'],
  ['SKU-7728', 'Accessories', 15.75, 14726.25, '2024-11-01', ''],
  ['SKU-3345', 'Electronics', 67, 22445, '2024-10-18', ''],
  ['SKU-5512', 'Hardware', 89, 31150, '', 'Reorder'],
  ['SKU-6678', 'Software', 200, 42000, '2024-10-29', ''],
  ['SKU-7789', 'Accessories', 8.5, 5950, '2024-11-04', 'Verified'],
  ['SKU-2234', 'Electronics', 125, 35000, '', ''],
  ['SKU-1123', 'Hardware', 55, 27500, '2024-10-25', ''],
]

function inventoryHtml(): string {
  const head = ['Product Code', 'Category', 'Unit Cost', 'Total Value', 'Last Audit', 'Notes']
  const rows = review
    .map(
      ([code, category, cost, value, audit, notes]) =>
        `<tr><td>${code}</td><td>${category}</td><td>${money(cost)}</td><td>${money(value)}</td><td>${audit}</td><td>${notes}</td></tr>`,
    )
    .join('')
  return `<!doctype html><html><head><meta charset="utf-8"><style>
body{font:10.5pt "DejaVu Sans",sans-serif;margin:18mm}
table{border-collapse:collapse;margin-top:4mm} td,th{padding:2.5mm 5mm 2.5mm 0;text-align:left;font-weight:normal}
th{font-weight:bold}
</style></head><body>
<h1 style="font-size:15pt">WAREHOUSE STOCK REPORT</h1>
<p>Warehouse: Quayside Depot<br>Report date: 2025-01-15<br>Prepared by: Ines Varga</p>
<h2 style="font-size:12pt">Summary</h2>
<p>The quarterly count covered ten product lines across four categories. Two lines are flagged: SKU-4563
needs a recount before the next order, and SKU-5512 has reached its reorder point.</p>
<h2 style="font-size:12pt">Extended Inventory Review</h2>
<table><tr>${head.map((h) => `<th>${h}</th>`).join('')}</tr>${rows}</table>
<p style="margin-top:8mm">Values are unit cost times units on hand at the count. Empty cells were not recorded.</p>
</body></html>`
}

/** A photograph of a printed sign: askew, with uneven light and sensor noise. */
function photoHtml(lines: string[], angle: number, seed: number, paper: string, ink: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><style>
body{margin:0;width:960px;height:640px;overflow:hidden;background:radial-gradient(circle at 30% 20%,#8a8f96,#3b3f45)}
.sign{position:absolute;left:110px;top:110px;width:680px;padding:40px;background:${paper};color:${ink};
transform:rotate(${angle}deg);font:bold 40px/1.4 "DejaVu Sans",sans-serif;box-shadow:6px 10px 18px rgba(0,0,0,.5)}
canvas{position:absolute;left:0;top:0}
</style></head><body><div class="sign">${lines.map((l) => `<div>${l}</div>`).join('')}</div>
<canvas id="n" width="960" height="640"></canvas><script>
const c=document.getElementById('n').getContext('2d');const img=c.createImageData(960,640);let s=${seed};
for(let i=0;i<img.data.length;i+=4){s=(Math.imul(s,1664525)+1013904223)>>>0;const v=s>>>24;
img.data[i]=v;img.data[i+1]=v;img.data[i+2]=v;img.data[i+3]=12}
c.putImageData(img,0,0);</script></body></html>`
}

const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] })
try {
  const page = await browser.newPage()
  await page.setContent(receiptHtml())
  writeFileSync(`${fixtures}docs/receipt.pdf`, await page.pdf({ width: '90mm', height: '200mm' }))
  await page.setContent(inventoryHtml())
  writeFileSync(`${fixtures}docs/inventory.pdf`, await page.pdf({ format: 'A4' }))
  await page.setViewportSize({ width: 960, height: 640 })
  await page.setContent(
    photoHtml(
      ['HARBOUR BAKERY', 'Open daily 7 to 18', 'Fresh bread every morning'],
      -3,
      5,
      '#f4efe2',
      '#5a2a12',
    ),
  )
  writeFileSync(`${fixtures}files/photo.jpg`, await page.screenshot({ type: 'jpeg', quality: 82 }))
  await page.setContent(
    photoHtml(['TEAM MEETING', 'Thursday at 14:30', 'Room 4B, second floor'], 2.5, 9, '#ffffff', '#1b3d6e'),
  )
  writeFileSync(`${fixtures}files/photo2.jpg`, await page.screenshot({ type: 'jpeg', quality: 82 }))
} finally {
  await browser.close()
}
