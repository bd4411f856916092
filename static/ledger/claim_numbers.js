// The episode's claims inline: a claim added with "Add another Claim" is offered the
// number after the highest on the page, as the server offers the first blank claim.
// Without JavaScript there is no such button, and nothing here is needed.
"use strict";

document.addEventListener("formset:added", (event) => {
  if (event.detail.formsetName !== "claims") {
    return;
  }
  const number = event.target.querySelector("input[name$='-number']");
  if (!number || number.value) {
    return;
  }
  const taken = [...document.querySelectorAll("#claims-group input[name$='-number']")]
    .map((input) => Number.parseInt(input.value, 10))
    .filter(Number.isInteger);
  number.value = Math.max(0, ...taken) + 1;
});
