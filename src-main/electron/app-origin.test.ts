import { describe, expect, it } from 'vitest'
import { isAppUrl, isExternalLink, isTrustedSender } from './app-origin'

describe('which frames may use the bridge', () => {
  it('accepts only the main frame of our own page', () => {
    expect(isTrustedSender({ url: 'app://agentry/index.html', parent: null })).toBe(true)
    expect(isTrustedSender({ url: 'app://agentry/index.html', parent: {} })).toBe(false) // an iframe
    expect(isTrustedSender({ url: 'https://evil.example/', parent: null })).toBe(false)
    expect(isTrustedSender({ url: 'app://agentry.evil.example/', parent: null })).toBe(false)
    expect(isTrustedSender({ url: 'file:///tmp/x.html', parent: null })).toBe(false)
    expect(isTrustedSender(null)).toBe(false) // frame already gone
  })

  it('accepts the dev server only when one is configured, and only its exact origin', () => {
    const dev = 'http://localhost:5173'
    expect(isTrustedSender({ url: 'http://localhost:5173/', parent: null }, dev)).toBe(true)
    expect(isTrustedSender({ url: 'http://localhost:5173/', parent: null })).toBe(false)
    expect(isTrustedSender({ url: 'http://localhost:5174/', parent: null }, dev)).toBe(false)
    expect(isAppUrl('not a url', dev)).toBe(false)
  })

  it('opens only web and mail links externally', () => {
    expect(isExternalLink('https://example.com/docs')).toBe(true)
    expect(isExternalLink('mailto:a@b.c')).toBe(true)
    expect(isExternalLink('file:///etc/passwd')).toBe(false)
    expect(isExternalLink('javascript:alert(1)')).toBe(false)
    expect(isExternalLink('smb://share/x')).toBe(false)
  })
})
