import { describe, expect, test } from "vitest";
import { isTabletDevice } from "./device";

const IPAD =
  "Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";
const IPADOS_DESKTOP =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15";
const ANDROID_TABLET =
  "Mozilla/5.0 (Linux; Android 13; SM-X200) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36";
const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";
const ANDROID_PHONE =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36";
const DESKTOP_CHROME =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36";

describe("isTabletDevice", () => {
  test.each([
    ["an iPad", IPAD, 5, true],
    ["iPadOS with a desktop user agent and touch", IPADOS_DESKTOP, 5, true],
    ["an Android tablet", ANDROID_TABLET, 5, true],
    ["an iPhone", IPHONE, 5, true],
    ["an Android phone", ANDROID_PHONE, 5, true],
    ["a Mac without touch", IPADOS_DESKTOP, 0, false],
    ["desktop Chrome", DESKTOP_CHROME, 0, false],
  ])("recognises %s", (_name, ua, touch, expected) => {
    expect(isTabletDevice(ua, touch)).toBe(expected);
  });
});
