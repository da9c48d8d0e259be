// The targets of the page that fail WCAG 2.2's target size (SC 2.5.8, AA), as the browser lays
// them out: a target (link, button, summary, field with the label around it) under 24 × 24 CSS px
// passes only if a circle of 24 px on its centre meets no other target and no other small
// target's circle; a link inside a sentence is exempt. Every fold-out but the languages' (which
// covers the page) is opened first. Returns [{what, text, w, h}] of the failing ones.
() => {
  document.querySelectorAll("details:not(.languages details)").forEach((d) => { d.open = true; });
  const interactive = "a[href], button, summary, input:not([type=hidden]), select, textarea, [role=button]";
  const visible = (el) => {
    const r = el.getBoundingClientRect();
    return el.checkVisibility({ visibilityProperty: true, contentVisibilityAuto: true })
      && !el.closest("[aria-hidden=true]") && r.width > 1 && r.height > 1;
  };
  // a field inside its label: the label takes the tap too
  const box = (el) => {
    const label = el.labels && el.labels[0];
    return (label && label.contains(el) ? label : el).getBoundingClientRect();
  };
  const inSentence = (el) => {
    if (el.tagName !== "A" || getComputedStyle(el).display !== "inline") { return false; }
    let block = el.parentElement;
    while (getComputedStyle(block).display.startsWith("inline")) { block = block.parentElement; }
    const targetsText = [...block.querySelectorAll(interactive)].reduce((n, t) => n + t.textContent.trim().length, 0);
    return block.textContent.trim().length > targetsText;
  };
  const targets = [...document.querySelectorAll(interactive)].filter(visible).map((el) => {
    const r = box(el);
    return { el, r, cx: r.left + r.width / 2, cy: r.top + r.height / 2,
      small: r.width < 23.95 || r.height < 23.95, exempt: inSentence(el) };
  });
  const meets = (t, r) => {
    const x = Math.max(r.left, Math.min(t.cx, r.right)), y = Math.max(r.top, Math.min(t.cy, r.bottom));
    return Math.hypot(x - t.cx, y - t.cy) < 12;
  };
  const nested = (a, b) => a.el.contains(b.el) || b.el.contains(a.el);
  const crowded = (t) => targets.some((o) => o !== t && !nested(o, t)
    && (meets(t, o.r) || (o.small && !o.exempt && Math.hypot(o.cx - t.cx, o.cy - t.cy) < 24)));
  return targets.filter((t) => t.small && !t.exempt && crowded(t)).map((t) => ({
    what: t.el.tagName.toLowerCase() + (t.el.id ? "#" + t.el.id : "") + (t.el.className ? "." + String(t.el.className) : ""),
    text: t.el.textContent.trim().slice(0, 20), w: Math.round(t.r.width), h: Math.round(t.r.height),
  }));
}
