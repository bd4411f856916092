import json
import logging

# Attributes every LogRecord has; anything else was passed in `extra` and is kept.
_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", (), None))) | {"message", "asctime"}


class JSONFormatter(logging.Formatter):
    """One JSON object per line: greppable, and parseable by any log pipeline.

    For a request it keeps the method, path and status, never the query string,
    headers, cookies or body, which may carry secrets or what a reader searched.
    """

    def format(self, record):
        entry = {
            "time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        request = getattr(record, "request", None)
        if request is not None and hasattr(request, "method"):
            entry["method"] = request.method
            entry["path"] = request.path
        if getattr(record, "status_code", None):
            entry["status"] = record.status_code
        for key, value in vars(record).items():
            if key not in _STANDARD and key not in ("request", "status_code"):
                entry[key] = value if isinstance(value, (str, int, float, bool)) else repr(value)
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)
