import { expect, test } from 'vitest';
import { readDoctorConfig } from '../../../src/cli/doctor/config.js';
import { WalletConfigError } from '../../../src/index.js';

test('the environment wins over the file, field by field', () => {
  const file = JSON.stringify({ baseUrl: 'https://file.example', webhookUrl: 'https://shop.example/hooks' });
  expect(readDoctorConfig({ WALLET_BASE_URL: 'https://env.example' }, file)).toEqual({
    baseUrl: 'https://env.example',
    webhookUrl: 'https://shop.example/hooks',
  });
});

test('allowed hosts come comma-separated and the keyring as JSON from the environment', () => {
  const config = readDoctorConfig({
    WALLET_ALLOWED_REDIRECT_HOSTS: 'shop.example.com, *.shop.example.com',
    WALLET_TOKEN_KEYS: '{"primary":"k1","keys":{"k1":"abc"}}',
  });
  expect(config.allowedRedirectHosts).toEqual(['shop.example.com', '*.shop.example.com']);
  expect(config.keyring).toEqual({ primary: 'k1', keys: { k1: 'abc' } });
});

test('an unknown field in the file is refused, naming it', () => {
  expect(() => readDoctorConfig({}, '{"apiKye":"x"}')).toThrow(
    expect.objectContaining({ name: 'WalletConfigError', option: 'config.apiKye' }),
  );
});

test('a field of the wrong type is refused, naming it', () => {
  expect(() => readDoctorConfig({}, '{"maxClockSkewMs":"soon"}')).toThrow(WalletConfigError);
  expect(() => readDoctorConfig({}, '{"allowedRedirectHosts":"a.example"}')).toThrow(
    'config.allowedRedirectHosts: must be a list of host names',
  );
});

test('a keyring variable that is not JSON is refused without repeating its value', () => {
  const secret = 'QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo=';
  let message = '';
  try {
    readDoctorConfig({ WALLET_TOKEN_KEYS: `{primary: k1, keys: ${secret}` });
  } catch (error) {
    message = (error as Error).message;
  }
  expect(message).toMatch(/^WALLET_TOKEN_KEYS: is not JSON/);
  expect(message).not.toContain(secret);
});

test('a file that is not a JSON object is refused', () => {
  expect(() => readDoctorConfig({}, '[]')).toThrow('config: must be a JSON object of doctor settings');
  expect(() => readDoctorConfig({}, 'apiKey=x')).toThrow('config: is not JSON');
});
