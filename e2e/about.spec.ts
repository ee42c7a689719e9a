import { readFileSync } from 'node:fs'
import type { BureauServer } from './support/bureauServer'
import { expect, test } from './support/test'

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string
}
let bureau: BureauServer

test.beforeAll(async ({ sharedHost }) => {
  await sharedHost.reset()
  bureau = sharedHost.bureau
})

test('the About panel shows the version through the contract', async ({ page }) => {
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text())
  })
  await page.goto(bureau.openUrl)
  await expect(page).toHaveURL(`${bureau.url}/`)
  await page.getByRole('button', { name: 'About' }).click()
  const dialog = page.getByRole('dialog', { name: 'About Bureau' })
  await expect(dialog.getByTestId('about-version')).toHaveText(version)
  await expect(dialog.getByTestId('about-host')).toHaveText('Headless host (web)')
  await dialog.getByRole('button', { name: 'Close' }).click()
  await expect(dialog).toBeHidden()
  expect(errors).toEqual([])
})

test('navigation reaches every page by keyboard', async ({ page }) => {
  await page.goto(bureau.openUrl)
  for (const name of ['Voice', 'Workspace', 'Settings', 'Chat']) {
    const item = page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name })
    await item.focus()
    await page.keyboard.press('Enter')
    await expect(item).toHaveAttribute('aria-current', 'page')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(name)
  }
})

test('without the token the UI cannot call the contract', async ({ page }) => {
  await page.goto(`${bureau.url}/`)
  await page.getByRole('button', { name: 'About' }).click()
  await expect(page.getByRole('alert')).toContainText('Missing token')
})
