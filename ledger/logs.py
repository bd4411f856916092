import json
import logging

from gunicorn import glogging

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
        # ASCII only: a reader's text can then hold no character that any tool
        # (str.splitlines splits on U+2028 and \x85 too) takes for a line break.
        return json.dumps(entry, ensure_ascii=True)


class GunicornLogger(glogging.Logger):
    """gunicorn's own lines and its access log, as JSONFormatter lines like Django's.

    gunicorn's access_log_format is text with %-placeholders, which a request's path
    could close and reopen, or break with a newline; here each entry is built and
    encoded by json.dumps.
    """

    def setup(self, cfg):
        super().setup(cfg)
        for log in (self.error_log, self.access_log):
            for handler in log.handlers:
                handler.setFormatter(JSONFormatter())

    def access(self, resp, req, environ, request_time):
        if not self.cfg.accesslog:
            return
        method = environ.get("REQUEST_METHOD", "")
        # WSGI hands the path over as Latin-1 decoded bytes; readers' paths are UTF-8.
        path = environ.get("PATH_INFO", "").encode("latin-1").decode("utf-8", "replace")
        status = int(str(resp.status).split(None, 1)[0])
        # No query string: it may hold what a reader searched for.
        self.access_log.info(
            "%s %s %s",
            method,
            path,
            status,
            extra={
                "method": method,
                "path": path,
                "status": status,
                "bytes": getattr(resp, "sent", None) or 0,
                "duration_ms": round(request_time.total_seconds() * 1000),
            },
        )
