// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { BureauProvider } from '../../../src/renderer/src/ipc/BureauProvider'
import { CalendarAccount, defaultSettings, PublicSettings } from '../../../src/shared/settings'
import { fakeBureau } from '../../support/fakeBureau'

const invoke = vi.hoisted(() => vi.fn())
const bureau = fakeBureau({}, invoke)

const { CalendarSection } = await import('../../../src/renderer/src/settings/sections/CalendarSection')

const SECRET = 'caldav-password-never-shown-91c2'
const WORK = CalendarAccount.parse({ url: 'https://dav.example.com/', user: 'alice' })

function settingsWith(accounts: Record<string, CalendarAccount>, passwordSet: boolean) {
  return PublicSettings.parse({
    ...defaultSettings(),
    calendar: { ...defaultSettings().calendar, accounts },
    secrets: passwordSet ? { 'calendar.accounts.work.password': { set: true } } : {},
    secretStorage: { kind: 'key-file', secure: true },
  })
}

function show(settings: PublicSettings) {
  invoke.mockImplementation(async (route: string) => {
    if (route === 'settings.update' || route === 'settings.setSecret' || route === 'settings.clearSecret')
      return settings
    if (route === 'calendar.test')
      return {
        ok: true,
        message: 'Logged in to dav.example.com; 2 calendars: Work, Team.',
        calendars: ['Work', 'Team'],
      }
    throw new Error(`unexpected route ${route}`)
  })
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } })
  render(
    <BureauProvider client={bureau}>
      <QueryClientProvider client={client}>
        <CalendarSection settings={settings} />
      </QueryClientProvider>
    </BureauProvider>,
  )
  return screen.getByRole('region', { name: 'Calendar' })
}

const fill = (form: HTMLElement, label: string, value: string) =>
  fireEvent.change(within(form).getByLabelText(label, { exact: false }), { target: { value } })

describe('Settings → Calendar', () => {
  afterEach(() => {
    cleanup()
    invoke.mockReset()
  })

  it('adds an account: tests it with the typed password, saves it, stores the password as a secret', async () => {
    const section = show(settingsWith({}, false))
    expect(within(section).getByText('No CalDAV accounts yet.')).toBeTruthy()
    fireEvent.click(within(section).getByRole('button', { name: 'Add account' }))
    const form = within(section).getByRole('form', { name: 'New calendar account' })
    fill(form, 'Account name', 'work')
    fill(form, 'Server address', 'https://dav.example.com/')
    fill(form, 'User name', 'alice')
    fill(form, 'Password', SECRET)
    fireEvent.click(within(form).getByRole('button', { name: 'Test connection' }))
    await waitFor(() =>
      expect(within(form).getByRole('status').textContent).toContain(
        'CalDAV: Logged in to dav.example.com; 2 calendars',
      ),
    )
    expect(invoke).toHaveBeenCalledWith('calendar.test', {
      name: 'work',
      account: { url: 'https://dav.example.com/', user: 'alice' },
      password: SECRET,
    })
    fireEvent.click(within(form).getByRole('button', { name: 'Save account' }))
    await waitFor(() =>
      expect(invoke).toHaveBeenCalledWith('settings.setSecret', {
        name: 'calendar.accounts.work.password',
        value: SECRET,
      }),
    )
    expect(invoke).toHaveBeenCalledWith('settings.update', {
      calendar: { accounts: { work: { url: 'https://dav.example.com/', user: 'alice' } } },
    })
  })

  it('shows whether a password is stored, never the password; removes an account with one update', async () => {
    const section = show(settingsWith({ work: WORK }, true))
    expect(within(section).getByTestId('calendar-password-status').textContent).toBe('password set')
    expect(section.textContent).not.toContain(SECRET)
    fireEvent.click(within(section).getByRole('button', { name: 'Remove' }))
    await waitFor(() =>
      expect(invoke).toHaveBeenCalledWith('settings.update', { calendar: { accounts: { work: null } } }),
    )
    expect(invoke).not.toHaveBeenCalledWith('settings.clearSecret', expect.anything())
  })

  it('saves the time zone when the field is left', async () => {
    const section = show(settingsWith({}, false))
    const zone = within(section).getByLabelText('Time zone', { exact: false })
    fireEvent.change(zone, { target: { value: 'Europe/Paris' } })
    fireEvent.blur(zone)
    await waitFor(() =>
      expect(invoke).toHaveBeenCalledWith('settings.update', { calendar: { timeZone: 'Europe/Paris' } }),
    )
  })
})
