// The episode admin's transcript panel: a selection in the transcript becomes a new claim.
// Each run of transcript text carries where it starts in the transcript (data-at), so the
// selection is sent as offsets and the server takes the exact words, time and next number.
// Without this script the panel's form works the same with a pasted excerpt.
(function () {
  "use strict";
  const panel = document.querySelector("[data-transcript-panel]");
  if (!panel) return;
  const text = panel.querySelector(".transcript-text");
  const form = panel.querySelector("form");
  const button = panel.querySelector("[data-capture]");
  const hint = panel.querySelector("[data-capture-hint]");
  button.hidden = false;
  hint.hidden = false;

  // The selection's range, if it lies (at least partly) in the transcript.
  function selectedRange() {
    const selection = window.getSelection();
    if (!selection || selection.isCollapsed || !selection.rangeCount) return null;
    const range = selection.getRangeAt(0);
    return range.intersectsNode(text) ? range : null;
  }

  // [start, end] offsets into the transcript of the runs the range covers.
  function offsets(range) {
    const runs = [...text.querySelectorAll("[data-at]")].filter((run) => range.intersectsNode(run));
    if (!runs.length) return null;
    const first = runs[0];
    const last = runs[runs.length - 1];
    const start = Number(first.dataset.at) + (first.contains(range.startContainer) ? range.startOffset : 0);
    const end = Number(last.dataset.at) + (last.contains(range.endContainer) ? range.endOffset : last.textContent.length);
    return end > start ? [start, end] : null;
  }

  document.addEventListener("selectionchange", function () {
    const ready = Boolean(selectedRange());
    button.disabled = !ready;
    hint.hidden = ready;
  });

  button.addEventListener("click", function () {
    const range = selectedRange();
    const span = range && offsets(range);
    if (!span) return;
    form.elements.start.value = span[0];
    form.elements.end.value = span[1];
    form.elements.excerpt.value = "";
    form.submit();
  });
})();
