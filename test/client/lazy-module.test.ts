import { expect, test } from 'vitest';
import { lazyModule } from '../../src/client/lazy-module.js';

test('a lazy module is loaded once however often it is asked for, and a failed load is tried again', async () => {
  let loads = 0;
  let fail = true;
  const load = lazyModule(async () => {
    loads += 1;
    if (fail) throw new Error('chunk unavailable');
    return { loaded: loads };
  });
  await expect(load()).rejects.toThrow('chunk unavailable');
  fail = false;
  const [first, second] = await Promise.all([load(), load()]);
  expect(await load()).toBe(first);
  expect(second).toBe(first);
  expect(first).toEqual({ loaded: 2 });
  expect(loads).toBe(2);
});

test('loaded() answers nothing before a load has ended, nor after one failed, and the module once one has', async () => {
  let fail = true;
  const load = lazyModule(async () => {
    if (fail) throw new Error('chunk unavailable');
    return { name: 'journal' };
  });
  expect(load.loaded()).toBeUndefined();
  await expect(load()).rejects.toThrow('chunk unavailable');
  expect(load.loaded()).toBeUndefined();
  fail = false;
  const loading = load();
  expect(load.loaded()).toBeUndefined();
  const module = await loading;
  expect(load.loaded()).toBe(module);
});
