# The image of PrairieLearn's external grader for mlnotes questions: build it from this folder
# (serverFilesCourse/mlnotes_grader), push it, and name it in each question's info.json
# ("externalGradingOptions": {"image": ...}). Grading jobs run without network: everything the
# grader imports is installed here, pinned; mlnotes itself comes with serverFilesCourse (lib/).
FROM python:3.11-slim
RUN apt-get update && apt-get install -y --no-install-recommends bubblewrap \
    && rm -rf /var/lib/apt/lists/*
COPY requirements.txt /tmp/requirements.txt
RUN python -m pip install --no-cache-dir --disable-pip-version-check -r /tmp/requirements.txt
