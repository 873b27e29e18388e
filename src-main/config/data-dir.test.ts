import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { resolveDataDir } from './index'

describe('resolveDataDir', () => {
  it('uses AGENTRY_HOME on every platform, made absolute', () => {
    expect(resolveDataDir({ AGENTRY_HOME: '/srv/agentry', XDG_DATA_HOME: '/x' }, 'linux')).toBe('/srv/agentry')
    expect(resolveDataDir({ AGENTRY_HOME: 'rel/home', HOME: '/home/u' }, 'linux')).toBe(path.resolve('rel/home'))
    expect(resolveDataDir({ AGENTRY_HOME: '/opt/a' }, 'darwin')).toBe('/opt/a')
  })

  it('ignores an empty AGENTRY_HOME', () => {
    expect(resolveDataDir({ AGENTRY_HOME: ' ', HOME: '/home/u' }, 'linux')).toBe('/home/u/.local/share/agentry')
  })

  it('on Linux honours an absolute XDG_DATA_HOME, else ~/.local/share', () => {
    expect(resolveDataDir({ HOME: '/home/u', XDG_DATA_HOME: '/data' }, 'linux')).toBe('/data/agentry')
    expect(resolveDataDir({ HOME: '/home/u' }, 'linux')).toBe('/home/u/.local/share/agentry')
    // relative XDG values are invalid per the XDG spec
    expect(resolveDataDir({ HOME: '/home/u', XDG_DATA_HOME: 'data' }, 'linux')).toBe('/home/u/.local/share/agentry')
  })

  it('on macOS uses ~/Library/Application Support', () => {
    expect(resolveDataDir({ HOME: '/Users/u' }, 'darwin')).toBe('/Users/u/Library/Application Support/agentry')
  })

  it('on Windows uses %APPDATA% with Windows separators', () => {
    expect(resolveDataDir({ APPDATA: 'C:\\Users\\u\\AppData\\Roaming' }, 'win32')).toBe('C:\\Users\\u\\AppData\\Roaming\\agentry')
    expect(resolveDataDir({ USERPROFILE: 'C:\\Users\\u' }, 'win32')).toBe('C:\\Users\\u\\AppData\\Roaming\\agentry')
  })
})
