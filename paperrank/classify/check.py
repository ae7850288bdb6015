"""`paperrank classify check`: is the LLM endpoint ready, before a long run needs it?

Checks, in order, that the key is set (in the variable the config names), that the endpoint
answers, and that it accepts the key; and says whether it lists the configured model.  `make
run` calls it before fetching from OpenReview, so a missing key or a wrong URL stops the job
in seconds, not after the crawl.  Exit 0 when ready, 2 (one line saying what to fix) if not.
The answer is bounded like the run's (`paperrank.classify.http`): a redirect to another host,
an answer past the size bound or JSON nested past the depth bound is refused in one line.
"""

from __future__ import annotations

import openai

from paperrank.classify.backends import NO_KEY, safe_url
from paperrank.classify.config import load_config
from paperrank.classify.http import EndpointRefused, Guard
from paperrank.classify.runner import api_key
from paperrank.core import network
from paperrank.core.errors import PaperrankError
from paperrank.core.redact import Redactor

TIMEOUT = 15.0  # seconds: a preflight must be quick, whatever the run's timeout


def check_endpoint(base_url: str | None, model: str | None, config_file: str | None) -> None:
    """Check the key, the endpoint and the model of the config (overridden by the arguments);
    print one line saying what is ready, or raise PaperrankError saying what to fix."""
    config = load_config(config_file).override(base_url=base_url, model=model)
    endpoint = safe_url(config.base_url)
    key = api_key(config)
    guard = Guard(config.base_url, endpoint, Redactor(key if key != NO_KEY else None))
    client = openai.OpenAI(api_key=key, base_url=config.base_url, timeout=TIMEOUT, max_retries=0,
                           http_client=openai.DefaultHttpxClient(
                               event_hooks=guard.hooks(asynchronous=False)))
    try:
        raw = client.models.with_raw_response.list()
        network.check_depth(raw.text, f"the model list of the endpoint {endpoint}")
        models = [m.id for m in raw.parse()]
    except EndpointRefused as error:
        raise PaperrankError(error.say("the request for the model list")) from None
    except (openai.AuthenticationError, openai.PermissionDeniedError) as error:
        raise PaperrankError(
            f"the endpoint {endpoint} refused the key in {config.api_key_env} (HTTP "
            f"{error.status_code}); set the right key, or run offline with --backend keywords"
        ) from None
    except (openai.APIConnectionError, openai.APITimeoutError):
        raise PaperrankError(
            f"the endpoint {endpoint} did not answer within {TIMEOUT:.0f} s; check the URL "
            "(--base-url, LLM_URL, base_url in the config) and the network"
        ) from None
    except openai.APIStatusError as error:
        # It answers, but lists no models (not every OpenAI-compatible server does).
        print(f"ok: {endpoint} answers (HTTP {error.status_code} to the model list); key in "
              f"{config.api_key_env}; model {config.model} not checked")
        return
    finally:
        client.close()
    listed = "is listed" if config.model in models else f"is NOT among its {len(models)} models"
    print(f"ok: {endpoint} answers and accepts the key in {config.api_key_env}; model "
          f"{config.model} {listed}")
