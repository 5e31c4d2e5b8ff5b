"use client";
// On a narrow screen a wide table scrolls inside its own box (app/globals.css) rather than the
// page: such a box must be reachable from the keyboard (WCAG 2.1.1; axe's
// scrollable-region-focusable), so every table that does scroll is a Tab stop, and one that
// fits is not. Watched as the page changes and as the window is resized.
import { useEffect } from "react";

const BOXES = "main table, main .table-scroll";
const MARK = "data-scroll-box";

function markScrollBoxes(): void {
  for (const box of Array.from(document.querySelectorAll<HTMLElement>(BOXES))) {
    const scrolls = box.scrollWidth > box.clientWidth + 1;
    if (scrolls && !box.hasAttribute(MARK)) {
      box.setAttribute(MARK, "");
      box.tabIndex = 0;
    } else if (!scrolls && box.hasAttribute(MARK)) {
      box.removeAttribute(MARK);
      box.removeAttribute("tabindex");
    }
  }
}

export function ScrollBoxes() {
  useEffect(() => {
    let frame = 0;
    const later = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(markScrollBoxes);
    };
    const observer = new MutationObserver(later);
    observer.observe(document.body, { childList: true, subtree: true, characterData: true });
    window.addEventListener("resize", later);
    later();
    return () => {
      cancelAnimationFrame(frame);
      observer.disconnect();
      window.removeEventListener("resize", later);
    };
  }, []);
  return null;
}
