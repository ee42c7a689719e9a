// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { BureauProvider } from '../../../src/renderer/src/ipc/BureauProvider'
import { defaultSettings, EmailAccount, PublicSettings } from '../../../src/shared/settings'
import { fakeBureau } from '../../support/fakeBureau'

const invoke = vi.hoisted(() => vi.fn())
const bureau = fakeBureau({}, invoke)

const { EmailSection } = await import('../../../src/renderer/src/settings/sections/EmailSection')

const SECRET = 'imap-password-never-shown-7f3a'
const WORK = EmailAccount.parse({
  imap: { host: 'imap.example.com', port: 993, tls: true },
  smtp: { host: 'smtp.example.com', port: 587, tls: false },
  user: 'alice',
  from: 'alice@example.com',
  displayName: 'Alice',
})

function settingsWith(accounts: Record<string, EmailAccount>, passwordSet: boolean) {
  return PublicSettings.parse({
    ...defaultSettings(),
    email: { ...defaultSettings().email, accounts },
    secrets: passwordSet ? { 'email.accounts.work.password': { set: true } } : {},
    secretStorage: { kind: 'key-file', secure: true },
  })
}

function show(settings: PublicSettings) {
  invoke.mockImplementation(async (route: string) => {
    if (route === 'settings.update' || route === 'settings.setSecret' || route === 'settings.clearSecret')
      return settings
    if (route === 'email.test')
      return {
        imap: { ok: true, message: 'Logged in to imap.example.com:993; 5 folders.' },
        smtp: { ok: false, message: 'The SMTP server smtp.example.com:587 refused the login of "alice".' },
      }
    throw new Error(`unexpected route ${route}`)
  })
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } })
  render(
    <BureauProvider client={bureau}>
      <QueryClientProvider client={client}>
        <EmailSection settings={settings} />
      </QueryClientProvider>
    </BureauProvider>,
  )
  return screen.getByRole('region', { name: 'E-mail' })
}

const fill = (form: HTMLElement, label: string, value: string) =>
  fireEvent.change(within(form).getByLabelText(label, { exact: false }), { target: { value } })

describe('Settings → E-mail', () => {
  afterEach(() => {
    cleanup()
    invoke.mockReset()
  })

  it('adds an account: tests both servers with the typed password, saves it as the default, stores the password as a secret', async () => {
    const section = show(settingsWith({}, false))
    expect(within(section).getByText('No accounts yet.')).toBeTruthy()
    fireEvent.click(within(section).getByRole('button', { name: 'Add account' }))
    const form = within(section).getByRole('form', { name: 'New e-mail account' })
    fill(form, 'Account name', 'work')
    fill(form, 'User name', 'alice')
    fill(form, 'From address', 'alice@example.com')
    fill(form, 'IMAP host', 'imap.example.com')
    fill(form, 'SMTP host', 'smtp.example.com')
    fill(form, 'Password', SECRET)
    fireEvent.click(within(form).getByRole('button', { name: 'Test connection' }))
    const status = within(form).getByRole('status')
    await waitFor(() => expect(status.textContent).toContain('IMAP: Logged in to imap.example.com:993'))
    expect(status.textContent).toContain('SMTP: The SMTP server smtp.example.com:587 refused the login')
    expect(invoke).toHaveBeenCalledWith(
      'email.test',
      expect.objectContaining({ name: 'work', password: SECRET }),
    )
    fireEvent.click(within(form).getByRole('button', { name: 'Save account' }))
    await waitFor(() =>
      expect(invoke).toHaveBeenCalledWith('settings.setSecret', {
        name: 'email.accounts.work.password',
        value: SECRET,
      }),
    )
    const update = invoke.mock.calls.find(([route]) => route === 'settings.update')![1]
    expect(update.email.defaultAccount).toBe('work')
    expect(update.email.accounts.work).toMatchObject({ user: 'alice', imap: { host: 'imap.example.com' } })
    expect(JSON.stringify(update)).not.toContain(SECRET)
  })

  it('Save shows every field’s error at once beside it, focuses the first, and saves nothing', async () => {
    const section = show(settingsWith({}, false))
    fireEvent.click(within(section).getByRole('button', { name: 'Add account' }))
    const form = within(section).getByRole('form', { name: 'New e-mail account' })
    fill(form, 'Account name', 'work')
    fill(form, 'From address', 'not-an-email')
    // Checked as typed: the changed field says what is wrong at once.
    expect(within(form).getByText('Enter an e-mail address, e.g. ana@example.com.')).toBeTruthy()
    fill(form, 'IMAP port', '99999')
    expect(within(form).getByText('A port is between 1 and 65535.')).toBeTruthy()
    fireEvent.click(within(form).getByRole('button', { name: 'Save account' }))
    for (const text of [
      'Enter the user name the mail server knows you by.',
      'Enter an e-mail address, e.g. ana@example.com.',
      "Enter the server's name, e.g. imap.example.com.",
      'A port is between 1 and 65535.',
      "Enter the server's name, e.g. smtp.example.com.",
      'Enter the password (stored encrypted).',
    ])
      expect(within(form).getByText(text)).toBeTruthy()
    expect(document.activeElement).toBe(within(form).getByLabelText('User name'))
    expect(within(form).getByLabelText('From address').getAttribute('aria-invalid')).toBe('true')
    fireEvent.click(within(form).getByRole('button', { name: 'Test connection' }))
    expect(invoke).not.toHaveBeenCalled()
  })

  it('shows a stored password as set, never its value; editing leaves the box empty and keeps it', async () => {
    const section = show(settingsWith({ work: WORK }, true))
    expect(within(section).getByTestId('email-password-status').textContent).toContain('password set')
    expect(within(section).getByText('default', { exact: false })).toBeTruthy()
    fireEvent.click(within(section).getByRole('button', { name: 'Edit' }))
    const form = within(section).getByRole('form', { name: 'E-mail account work' })
    expect((within(form).getByLabelText('Password', { exact: false }) as HTMLInputElement).value).toBe('')
    expect(within(form).getByText(/Empty: keep the stored password/)).toBeTruthy()
    fireEvent.click(within(form).getByRole('button', { name: 'Test connection' }))
    await waitFor(() => expect(invoke).toHaveBeenCalledWith('email.test', { name: 'work', account: WORK }))
    fireEvent.click(within(form).getByRole('button', { name: 'Save account' }))
    await waitFor(() => expect(invoke).toHaveBeenCalledWith('settings.update', expect.anything()))
    expect(invoke.mock.calls.some(([route]) => route === 'settings.setSecret')).toBe(false)
  })

  it('an account without a password says so; removing one is one update (the host drops its password)', async () => {
    const section = show(settingsWith({ work: WORK }, true))
    fireEvent.click(within(section).getByRole('button', { name: 'Remove' }))
    await waitFor(() =>
      expect(invoke).toHaveBeenCalledWith('settings.update', {
        email: { accounts: { work: null } },
      }),
    )
    expect(invoke).not.toHaveBeenCalledWith('settings.clearSecret', expect.anything())
    cleanup()
    const bare = show(settingsWith({ work: WORK }, false))
    expect(within(bare).getByTestId('email-password-status').textContent).toContain('no password')
  })
})
