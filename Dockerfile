# Six-Shooter bot: long polling, SQLite on the /data volume.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    SIXSHOOTER_DB=/data/sixshooter.db

# FriBiDi for Pillow's raqm (its wheel brings raqm and HarfBuzz but loads FriBiDi from the
# system): without it Arabic and Persian pictures cannot be shaped and are drawn in English.
RUN apt-get update \
    && apt-get install -y --no-install-recommends libfribidi0 libharfbuzz0b libraqm0 \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY pyproject.toml README.md ./
COPY rules ./rules
COPY render ./render
COPY bot ./bot
RUN pip install . \
    && python -c "from PIL import features; assert features.check('raqm'), 'no raqm'" \
    && useradd --system --create-home --uid 10001 sixshooter \
    && mkdir -p /data && chown sixshooter:sixshooter /data

USER sixshooter
VOLUME ["/data"]
CMD ["sixshooter"]
