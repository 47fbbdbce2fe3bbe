# Six-Shooter bot: long polling, SQLite on the /data volume.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    SIXSHOOTER_DB=/data/sixshooter.db

WORKDIR /app
COPY pyproject.toml README.md ./
COPY rules ./rules
COPY render ./render
COPY bot ./bot
RUN pip install . \
    && useradd --system --create-home --uid 10001 sixshooter \
    && mkdir -p /data && chown sixshooter:sixshooter /data

USER sixshooter
VOLUME ["/data"]
CMD ["sixshooter"]
