# syntax=docker/dockerfile:1
# The production image: the wheel in a virtual environment on Debian's slim Python, run by a
# user without privileges, behind a reverse proxy (compose.yaml). Build: docker build -t scorekeeper .

FROM python:3.11-slim-bookworm AS wheel
WORKDIR /src
COPY pyproject.toml README.md LICENSE ./
COPY scorekeeper scorekeeper
COPY templates templates
COPY static static
RUN pip install --no-cache-dir build && python -m build --wheel --outdir /dist

FROM python:3.11-slim-bookworm
# Pango for WeasyPrint's PDFs (FriBiDi also for the result picture's right-to-left names: Pillow
# loads it); DejaVu and Noto so that a name in any script prints and is drawn (fonts-noto-core:
# a font per script, Devanagari, Bengali, Tamil, Arabic, Thai, Ethiopic, …; CJK; emoji).
RUN apt-get update \
 && apt-get install -y --no-install-recommends libpango-1.0-0 libpangoft2-1.0-0 libfribidi0 \
      fonts-dejavu-core fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji \
 && rm -rf /var/lib/apt/lists/*
RUN useradd --system --uid 10001 --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin scorekeeper
COPY --from=wheel /dist/ /tmp/dist/
# The instance folder (secret key and SQLite file when neither is configured) is the only
# place the app writes; it belongs to the app's user, the code does not.
RUN python -m venv /opt/scorekeeper \
 && /opt/scorekeeper/bin/pip install --no-cache-dir /tmp/dist/*.whl \
 && rm -r /tmp/dist \
 && install -d -o scorekeeper -g scorekeeper -m 0700 /opt/scorekeeper/var/scorekeeper-instance
COPY deploy/gunicorn.conf.py deploy/gunicorn-live.conf.py /etc/scorekeeper/

ENV PATH=/opt/scorekeeper/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    FLASK_APP=scorekeeper
USER scorekeeper
WORKDIR /opt/scorekeeper
# 8000: pages (deploy/gunicorn.conf.py); 8001: the tables' streams (compose's "live" service)
EXPOSE 8000 8001
# Liveness: the app answers. It asks as "localhost", so a TRUSTED_HOSTS list must name it
# (compose.yaml's does; the proxy never passes that host on from outside).
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["python", "-c", "import urllib.request as u; u.urlopen(u.Request('http://127.0.0.1:8000/healthz', headers={'Host': 'localhost'}), timeout=4)"]
CMD ["gunicorn", "-c", "/etc/scorekeeper/gunicorn.conf.py", "scorekeeper:create_app()"]
