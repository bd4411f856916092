// Starts Swagger UI on the API's OpenAPI document (templates/api/reference.html).
// A file, not an inline script, so the Content-Security-Policy needs no exception.
(function () {
  "use strict";
  var schemaUrl = document.currentScript.dataset.schemaUrl;
  window.SwaggerUIBundle({
    url: schemaUrl,
    dom_id: "#reference",
    deepLinking: true,
    // Read-only API: "Try it out" sends GETs only.
    supportedSubmitMethods: ["get"],
  });
})();
