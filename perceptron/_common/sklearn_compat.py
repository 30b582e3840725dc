"""scikit-learn's base class when it is installed, a plain class otherwise.

As xgboost's and lightgbm's scikit-learn wrappers do: with scikit-learn
importable, the estimators derive from ``sklearn.base.BaseEstimator`` and get
its machinery (metadata routing: ``set_fit_request``, ``set_score_request``,
``get_metadata_routing``; the HTML display in notebooks; what ``clone`` and
``check_estimator`` expect of an estimator); without it they derive from
``object`` and numpy alone serves (no routing to take part in, and notebooks
show ``repr``).  ``perceptron._common.base.BaseEstimator`` overrides what the package
defines itself (parameters, ``repr``, pickling, tags).

The cost: importing ``sklearn.base`` (which imports scipy) is part of
``import perceptron`` when scikit-learn is installed.
"""
from typing import TYPE_CHECKING, Any, Dict, Optional, Union

__all__ = ["EstimatorBase", "HAVE_SKLEARN", "ONLINE_EXPECTED_FAILURES"]

Request = Optional[Union[bool, str]]

if TYPE_CHECKING:
    class EstimatorBase:
        """What the estimators get from ``sklearn.base.BaseEstimator``, as a
        type checker should see it (scikit-learn ships no type information;
        each ``set_*_request`` exists only where the method takes metadata)."""

        def set_fit_request(self, **kwargs: Request) -> Any: ...
        def set_partial_fit_request(self, **kwargs: Request) -> Any: ...
        def set_score_request(self, **kwargs: Request) -> Any: ...
        def get_metadata_routing(self) -> Any: ...
        def _repr_mimebundle_(self, **kwargs: Any) -> Dict[str, str]: ...

    HAVE_SKLEARN: bool
else:
    try:
        from sklearn.base import BaseEstimator as EstimatorBase
    except ImportError:
        HAVE_SKLEARN = False

        class EstimatorBase:
            """The base without scikit-learn: nothing to add to ``object``."""
    else:
        HAVE_SKLEARN = True


# scikit-learn's estimator checks that an online learner cannot pass, and why
# (``Perceptron._sklearn_expected_failures``; the tests pass them to
# parametrize_with_checks as expected failures and check that they do fail)
ONLINE_EXPECTED_FAILURES = {
    "check_sample_weight_equivalence_on_dense_data":
        "the perceptron is online: a row of weight 2 makes one update of twice the size, "
        "while the same row repeated is visited twice and may update zero, one or two "
        "times, so weights cannot equal repetitions (as for scikit-learn's own SGD "
        "estimators)",
    "check_sample_weight_equivalence_on_sparse_data":
        "the same as on dense data: a row of weight 2 is one update of twice the size, "
        "not two visits of the row",
}
