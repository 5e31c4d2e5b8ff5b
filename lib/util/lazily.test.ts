import { describe, expect, it, vi } from "vitest";
import { lazily } from "./lazily";

describe("lazily", () => {
  it("makes the value on first use and hands every caller the same one", () => {
    const init = vi.fn(() => ({ made: true }));
    const value = lazily(init);
    expect(init).not.toHaveBeenCalled();
    const a = value();
    expect(value()).toBe(a);
    expect(init).toHaveBeenCalledTimes(1);
  });

  it("keeps no nullish value: the next caller makes it again", () => {
    let ready = false;
    const init = vi.fn(() => (ready ? "made" : null));
    const value = lazily<string | null>(init);
    expect(value()).toBeNull();
    ready = true;
    expect(value()).toBe("made");
    expect(value()).toBe("made");
    expect(init).toHaveBeenCalledTimes(2);
  });
});
